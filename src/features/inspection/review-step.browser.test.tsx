import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { startedRecording } from '../../../tests/web/recording-fixture.ts';
import { cleanup, render } from '../../../tests/web/render.tsx';
import {
  appendChunk,
  deleteRecording,
  type LocalRecording,
  saveRecording,
} from '../../lib/capture/recording-db.ts';
import { ReviewStep } from './review-step.tsx';
import './inspection.css';

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

  it('shows the length in whole seconds floored, as the video analysis page counts it', async () => {
    await render(
      <ReviewStep
        recording={{ ...recording(90_000), duration: 4.6 }}
        onSubmit={async () => {}}
        onDiscard={() => {}}
      />,
    );
    await expect.element(page.getByText('0:04', { exact: true })).toBeVisible();
  });

  it('counts the notes as the server does as they are typed, and names more than it takes', async () => {
    await showReview(250_000);
    const notes = page.getByLabelText('Operator notes');
    await notes.fill('Line clear');
    await expect.element(notes).toHaveAccessibleDescription('10 of 2000 characters');
    await notes.fill('💊'.repeat(2000));
    await expect.element(notes).toHaveAccessibleDescription('2000 of 2000 characters');
    await notes.fill('💊'.repeat(2001));
    await expect.element(notes).toHaveValue('💊'.repeat(2001));
    await expect
      .element(notes)
      .toHaveAccessibleDescription(
        'Operator notes must be at most 2000 characters (it has 2001) 2001 of 2000 characters',
      );
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

const checkpoint = (index: number, name: string) => ({
  index,
  name,
  qrCode: `LC1-TAG-0${index + 1}`,
  x: 100 * index,
  y: 0,
});
const fourTags = {
  floorplanConfigId: 'f'.repeat(24),
  tags: [
    checkpoint(0, 'Tag 1'),
    checkpoint(1, 'Tag 2'),
    checkpoint(2, 'Tag 3'),
    checkpoint(3, 'Tag 4'),
  ],
  hotZones: [],
};
/** A 12 s recording of the four-tag line with these tags scanned (at 2 s, 4 s, …). */
const scannedRecording = (...tagIndexes: number[]): LocalRecording => ({
  ...recording(250_000),
  checklist: fourTags,
  scans: tagIndexes.map((tagIndex, i) => ({
    code: `LC1-TAG-0${tagIndex + 1}`,
    videoTime: 2 * (i + 1),
    at: new Date().toISOString(),
    tagIndex,
  })),
});
const noPathText = (start: string) =>
  `${start}: the analysis needs at least 2 scanned checkpoints to draw the path you walked on the floor plan, so the LC manager will not see your route. You can still submit this recording; to show the route, record again and scan each checkpoint’s QR code as you pass it.`;

describe('a recording with fewer than two checkpoints scanned', () => {
  afterEach(() => page.viewport(414, 896));

  it('warns first thing, on a 390 px phone, that the analysis cannot draw the path, and still submits', async () => {
    await page.viewport(390, 844);
    const submitted: string[] = [];
    await render(
      <ReviewStep
        recording={scannedRecording()}
        onSubmit={async (notes) => void submitted.push(notes)}
        onDiscard={() => {}}
      />,
    );
    const text = noPathText('No checkpoint was scanned');
    const warning = page.getByRole('alert');
    await expect.element(warning).toHaveTextContent(text);
    // Above the summary, on the first screen, the step's whole width.
    const box = warning.element().getBoundingClientRect();
    expect(box.top).toBeLessThan(
      page.getByText('0 of 4 checkpoints scanned').element().getBoundingClientRect().top,
    );
    expect(box.bottom).toBeLessThanOrEqual(844);
    expect(box.width).toBe(document.querySelector('form')?.getBoundingClientRect().width);
    await expect.element(page.getByText('Tag 1, Tag 2, Tag 3, Tag 4')).toBeVisible();
    const submit = page.getByRole('button', { name: 'Submit' });
    await expect.element(submit).toHaveAccessibleDescription(text);
    await submit.click();
    await expect.poll(() => submitted).toEqual(['']);
  });

  it('counts checkpoints, not scans: one tag scanned twice is still one place', async () => {
    await render(
      <ReviewStep
        recording={scannedRecording(2, 2)}
        onSubmit={async () => {}}
        onDiscard={() => {}}
      />,
    );
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent(noPathText('Only 1 checkpoint was scanned'));
  });

  it('keeps the minimum-length warning beside it, both heard on Submit', async () => {
    await render(
      <ReviewStep
        recording={{ ...scannedRecording(1), duration: 7.2 }}
        minVideoSeconds={30}
        onSubmit={async () => {}}
        onDiscard={() => {}}
      />,
    );
    const short =
      'This recording is 0:07 long, shorter than the 0:30 minimum: the LC manager will see it flagged in the report. If the walk was incomplete, discard it and record again.';
    await expect.element(page.getByText(short)).toBeVisible();
    await expect
      .element(page.getByRole('button', { name: 'Submit' }))
      .toHaveAccessibleDescription(`${noPathText('Only 1 checkpoint was scanned')} ${short}`);
  });

  it('says nothing of the path with two checkpoints scanned', async () => {
    await render(
      <ReviewStep
        recording={scannedRecording(0, 3)}
        onSubmit={async () => {}}
        onDiscard={() => {}}
      />,
    );
    await expect.element(page.getByText('2 of 4 checkpoints scanned')).toBeVisible();
    expect(page.getByRole('alert').elements()).toHaveLength(0);
    await expect
      .element(page.getByRole('button', { name: 'Submit' }))
      .not.toHaveAccessibleDescription();
  });

  it('says nothing of the path on a line with one checkpoint, where recording again would not help', async () => {
    await render(
      <ReviewStep
        recording={{
          ...scannedRecording(),
          checklist: { ...fourTags, tags: [checkpoint(0, 'Tag 1')] },
        }}
        onSubmit={async () => {}}
        onDiscard={() => {}}
      />,
    );
    await expect.element(page.getByText('0 of 1 checkpoints scanned')).toBeVisible();
    expect(page.getByRole('alert').elements()).toHaveLength(0);
  });
});

describe('a recording with every checkpoint scanned', () => {
  it('says so without a “Not scanned” heading', async () => {
    await render(
      <ReviewStep
        recording={scannedRecording(0, 1, 2, 3)}
        onSubmit={async () => {}}
        onDiscard={() => {}}
      />,
    );
    await expect.element(page.getByText('4 of 4 checkpoints scanned')).toBeVisible();
    await expect.element(page.getByText('Every checkpoint was scanned.')).toBeVisible();
    expect(page.getByText('Not scanned', { exact: true }).query()).toBeNull();
  });
});

/**
 * Real WebM chunks from MediaRecorder, as the recorder makes them: a canvas painted with moving
 * noise as the camera (a plain one makes a file so small that the browser finds its length).
 */
async function recordWebm(seconds: number): Promise<Blob[]> {
  const canvas = document.createElement('canvas');
  canvas.width = 160;
  canvas.height = 120;
  const context = canvas.getContext('2d');
  let step = 0;
  const painting = setInterval(() => {
    step += 1;
    for (let i = 0; i < 40; i += 1) {
      if (!context) return;
      context.fillStyle = `rgb(${(i * 37 + step * 11) % 256} ${(i * 53) % 256} ${step % 256})`;
      context.fillRect((i * 29 + step * 7) % 160, (i * 17 + step * 5) % 120, 20, 20);
    }
  }, 30);
  const recorder = new MediaRecorder(canvas.captureStream(30), { mimeType: 'video/webm' });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => event.data.size > 0 && chunks.push(event.data);
  const stopped = new Promise((resolve) => recorder.addEventListener('stop', resolve));
  recorder.start(250);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  recorder.stop();
  await stopped;
  clearInterval(painting);
  return chunks;
}

/** A stopped recording whose chunks are stored on the device, as the recorder stores them. */
async function storedRecording(id: string, chunks: Blob[]): Promise<LocalRecording> {
  const stored: LocalRecording = {
    ...startedRecording(id),
    mimeType: 'video/webm',
    state: 'recording',
  };
  await saveRecording(stored);
  // A chunk each quarter second, as recordWebm's recorder hands them over.
  for (const [index, chunk] of chunks.entries()) await appendChunk(stored, chunk, (index + 1) / 4);
  return { ...stored, state: 'recorded' };
}

const review = (recording: LocalRecording) =>
  render(<ReviewStep recording={recording} onSubmit={async () => {}} onDiscard={() => {}} />);

const player = () => page.getByLabelText('Your recording');
const cannotPlay = 'This phone cannot play the recording back.';

describe('playing the recording back before submitting it', () => {
  let webm: Blob[] = [];
  beforeAll(async () => {
    webm = await recordWebm(1.2);
  });
  afterEach(async () => {
    await cleanup();
    await deleteRecording('p1');
    await deleteRecording('p2');
    vi.restoreAllMocks();
  });

  it('plays the chunks stored on the phone from one object URL, without starting by itself', async () => {
    expect(webm.length).toBeGreaterThan(1);
    const created = vi.spyOn(URL, 'createObjectURL');
    const recording = await storedRecording('p1', webm);
    await review(recording);

    await expect.element(player()).toBeVisible();
    const video = player().element() as HTMLVideoElement;
    expect(created).toHaveBeenCalledOnce();
    const [blob] = created.mock.calls[0] ?? [];
    expect(blob).toBeInstanceOf(Blob);
    const total = webm.reduce((sum, chunk) => sum + chunk.size, 0);
    expect((blob as Blob).size).toBe(total);
    expect(recording.size).toBe(total);
    expect(video.src).toBe(created.mock.results[0]?.value);
    expect(video.controls).toBe(true);
    expect(video.playsInline).toBe(true);
    expect(video.autoplay).toBe(false);
    // The browser decodes it as far as its size and length, and it waits to be played.
    await expect
      .poll(() => video.readyState)
      .toBeGreaterThanOrEqual(HTMLMediaElement.HAVE_METADATA);
    expect(video.videoWidth).toBe(160);
    expect(video.paused).toBe(true);
    expect(page.getByText(cannotPlay).query()).toBeNull();
  });

  it('can be sought to its end before it was played, though the WebM does not state its length', async () => {
    // What the browser knew at loadedmetadata, and the seeks it made (media events do not bubble:
    // heard on the way down).
    const atMetadata: number[] = [];
    const seeks: number[] = [];
    const onMetadata = (event: Event) =>
      atMetadata.push((event.target as HTMLVideoElement).duration);
    const onSeeked = (event: Event) => seeks.push((event.target as HTMLVideoElement).currentTime);
    document.addEventListener('loadedmetadata', onMetadata, true);
    document.addEventListener('seeked', onSeeked, true);
    try {
      await review(await storedRecording('p1', webm));
      await expect.element(player()).toBeVisible();
      const video = player().element() as HTMLVideoElement;
      await expect.poll(() => atMetadata).toHaveLength(1);
      expect(atMetadata[0], 'MediaRecorder’s WebM states no length').toBe(Number.POSITIVE_INFINITY);
      // Sought to the end (the length is then known) and back to the start, by itself.
      await expect.poll(() => seeks).toHaveLength(2);
      expect(seeks[0]).toBeGreaterThan(0.8);
      expect(seeks[0]).toBeLessThan(2);
      expect(seeks[1]).toBe(0);
      expect(video.duration).toBe(seeks[0]);
      expect(video.paused).toBe(true);
    } finally {
      document.removeEventListener('loadedmetadata', onMetadata, true);
      document.removeEventListener('seeked', onSeeked, true);
    }
  });

  it('lets go of the URL when the step closes', async () => {
    const revoked = vi.spyOn(URL, 'revokeObjectURL');
    await review(await storedRecording('p1', webm));
    await expect.element(player()).toBeVisible();
    const url = (player().element() as HTMLVideoElement).src;
    expect(revoked).not.toHaveBeenCalled();
    await cleanup();
    expect(revoked).toHaveBeenCalledWith(url);
    await expect(fetch(url)).rejects.toThrow();
  });

  it('lets go of the first recording’s URL when it shows another', async () => {
    const first = await storedRecording('p1', webm);
    const second = await storedRecording('p2', webm.slice(0, 2));
    function Switching() {
      const [shown, setShown] = useState(first);
      return (
        <>
          <button type="button" onClick={() => setShown(second)}>
            Next
          </button>
          <ReviewStep recording={shown} onSubmit={async () => {}} onDiscard={() => {}} />
        </>
      );
    }
    const revoked = vi.spyOn(URL, 'revokeObjectURL');
    await render(<Switching />);
    await expect.element(player()).toBeVisible();
    const source = () => (player().query() as HTMLVideoElement | null)?.src;
    const url = source();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => source()?.startsWith('blob:') && source() !== url).toBe(true);
    expect(revoked).toHaveBeenCalledWith(url);
    expect(revoked).not.toHaveBeenCalledWith(source());
  });

  it('says in one line that it cannot be played when the browser cannot decode it', async () => {
    const bytes = new Blob([new TextEncoder().encode('not a video, '.repeat(200))]);
    await review(await storedRecording('p1', [bytes, bytes]));
    await expect.element(page.getByText(cannotPlay)).toBeVisible();
    expect(player().query()).toBeNull();
    // Submitting does not depend on it.
    await expect.element(page.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });

  it('says so when the phone holds no video for it', async () => {
    await review({ ...recording(90_000), id: 'p1' });
    await expect
      .element(
        page.getByText(
          'The recorded video was not found on this phone, so it cannot be played back.',
        ),
      )
      .toBeVisible();
    expect(player().query()).toBeNull();
  });

  it('fits a 390 × 844 phone, the step down to Submit on one screen', async () => {
    await page.viewport(390, 844);
    await review(await storedRecording('p1', webm));
    await expect.element(player()).toBeVisible();
    const box = player().element().getBoundingClientRect();
    // The step's whole width, whatever the video's own size (160 × 120 here).
    const step = document.querySelector('form')?.getBoundingClientRect();
    expect(box.width).toBe(step?.width);
    expect(box.width).toBeLessThanOrEqual(390);
    expect(box.height).toBeLessThanOrEqual(844 * 0.35);
    // The step itself, player and notes included, fits the screen down to Submit.
    const submit = page.getByRole('button', { name: 'Submit' }).element().getBoundingClientRect();
    expect(submit.bottom).toBeLessThanOrEqual(844);
  });
});
