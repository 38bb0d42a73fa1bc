import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { startedRecording } from '../../../tests/web/recording-fixture.ts';
import { cleanup, render } from '../../../tests/web/render.tsx';
import type { LocalRecording } from '../../lib/capture/recording-db.ts';
import { ReviewStep } from './review-step.tsx';

afterEach(() => cleanup());

const recording = (size: number, notes = ''): LocalRecording => ({
  ...startedRecording('r1'),
  state: 'recorded',
  duration: size ? 12 : 0,
  size,
  notes,
});

/** Renders the step for a recording of `size` bytes; answers the notes of each submit. */
async function showReview(size: number, notes = ''): Promise<string[]> {
  const submitted: string[] = [];
  await render(
    <ReviewStep
      recording={recording(size, notes)}
      onSubmit={async (notes) => void submitted.push(notes)}
      onDiscard={() => {}}
    />,
  );
  return submitted;
}

describe('the review step', () => {
  it('refuses to submit a recording stopped before the camera handed over any video', async () => {
    await showReview(0);
    await expect.element(page.getByRole('alert')).toHaveTextContent('Nothing was recorded');
    await expect.element(page.getByRole('button', { name: 'Submit' })).toBeDisabled();
    await expect.element(page.getByRole('button', { name: 'Discard recording' })).toBeEnabled();
  });

  it('submits a recording with video, with the notes', async () => {
    const submitted = await showReview(250_000);
    await page.getByLabelText('Operator notes').fill('Line clear');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => submitted).toEqual(['Line clear']);
    expect(page.getByRole('alert').elements()).toHaveLength(0);
  });

  it('takes at most 2000 characters of notes, counting them as they are typed', async () => {
    await showReview(250_000);
    const notes = page.getByLabelText('Operator notes');
    await expect.element(notes).toHaveAttribute('maxlength', '2000');
    await notes.fill('Line clear');
    await expect.element(notes).toHaveAccessibleDescription('10 of 2000 characters');
  });

  it('names notes longer than the server takes instead of submitting them', async () => {
    const submitted = await showReview(250_000, 'n'.repeat(2100));
    await page.getByRole('button', { name: 'Submit' }).click();
    const notes = page.getByLabelText('Operator notes');
    await expect.element(notes).toHaveFocus();
    await expect
      .element(notes)
      .toHaveAccessibleDescription(
        'Operator notes must be at most 2000 characters (it has 2100) 2100 of 2000 characters',
      );
    expect(submitted).toEqual([]);
  });
});

describe('a recording shorter than the minimum', () => {
  const shortText =
    'This recording is 0:07 long, shorter than the 0:30 minimum: the LC manager will see it flagged in the report. If the walk was incomplete, discard it and record again.';

  it('warns that it will be flagged and suggests recording again, and still submits', async () => {
    const submitted: string[] = [];
    await render(
      <ReviewStep
        recording={{ ...recording(90_000), duration: 7.2 }}
        minVideoSeconds={30}
        onSubmit={async (notes) => void submitted.push(notes)}
        onDiscard={() => {}}
      />,
    );
    await expect.element(page.getByText(shortText)).toBeVisible();
    const submit = page.getByRole('button', { name: 'Submit' });
    // Heard again on Submit, which stays available: the LC manager decides on the record.
    await expect.element(submit).toHaveAccessibleDescription(shortText);
    await expect.element(submit).toBeEnabled();
    await submit.click();
    await expect.poll(() => submitted).toEqual(['']);
  });

  it('says nothing at or above the minimum', async () => {
    await render(
      <ReviewStep
        recording={{ ...recording(250_000), duration: 30 }}
        minVideoSeconds={30}
        onSubmit={async () => {}}
        onDiscard={() => {}}
      />,
    );
    await expect.element(page.getByRole('button', { name: 'Submit' })).toBeVisible();
    expect(page.getByText(/shorter than the/).query()).toBeNull();
    await expect
      .element(page.getByRole('button', { name: 'Submit' }))
      .not.toHaveAccessibleDescription();
  });
});

describe('a recording that stopped short', () => {
  it('says why it stopped', async () => {
    const why =
      'The phone’s storage is full, so the recording stopped. What was recorded up to that moment is kept.';
    await render(
      <ReviewStep
        recording={{ ...recording(90_000), error: why }}
        onSubmit={async () => {}}
        onDiscard={() => {}}
      />,
    );
    await expect.element(page.getByRole('alert')).toHaveTextContent(why);
    await expect.element(page.getByRole('button', { name: 'Submit' })).toBeEnabled();
    await expect.element(page.getByRole('button', { name: 'Discard recording' })).toBeEnabled();
  });

  it('leaves out scans after the end of what was stored, and says so', async () => {
    const tag = (index: number, name: string) => ({
      index,
      name,
      qrCode: `LC1-TAG-0${index + 1}`,
      x: 0,
      y: 0,
    });
    await render(
      <ReviewStep
        recording={{
          ...recording(90_000),
          duration: 10,
          checklist: {
            floorplanConfigId: 'f'.repeat(24),
            tags: [tag(0, 'Hopper'), tag(1, 'Chute')],
            hotZones: [],
          },
          scans: [
            { code: 'LC1-TAG-01', videoTime: 4, at: new Date().toISOString(), tagIndex: 0 },
            { code: 'LC1-TAG-02', videoTime: 11.2, at: new Date().toISOString(), tagIndex: 1 },
          ],
        }}
        onSubmit={async () => {}}
        onDiscard={() => {}}
      />,
    );
    await expect.element(page.getByText('1 of 2 checkpoints scanned')).toBeVisible();
    await expect.element(page.getByText('Chute', { exact: true })).toBeVisible();
    await expect
      .element(
        page.getByText(
          'One scan was made after the end of the stored video: it is left out of the submission.',
        ),
      )
      .toBeVisible();
  });
});
