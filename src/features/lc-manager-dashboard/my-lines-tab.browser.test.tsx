import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { activeLine } from '../../../tests/web/line-fixture.ts';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { Toaster } from '../../components/toaster.tsx';
import { toasts } from '../../stores/toasts.ts';
import { MyLinesTab } from './my-lines-tab.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const line = activeLine('c00000000000000000000001', { name: 'My Line' });

describe('LC manager: deleting a line clearance', () => {
  it('asks why after the spec’s confirmation, in the LC manager’s dialog size, and sends it', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const fake = fakeFetch({ [`DELETE /api/line-clearances/${line._id}`]: { body: {} } });
    const sent: unknown[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)));
      return fake.fetchImpl(input, init);
    });
    const reload = vi.fn();
    await render(
      <>
        <MyLinesTab
          lines={[line]}
          loading={false}
          operatorsOf={() => []}
          onAdd={() => {}}
          reload={reload}
        />
        <Toaster />
      </>,
    );
    await userEvent.click(page.getByRole('button', { name: 'Delete My Line' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete this line clearance?');
    const dialog = page.getByRole('dialog', { name: 'Why is this line clearance deleted?' });
    // Spec §9: LC manager dialogs are 90vw wide, at most 600px.
    await expect.element(dialog).toHaveStyle({ maxWidth: '600px' });
    const reason = dialog.getByRole('textbox', { name: 'Reason (required)' });
    await reason.fill('too short');
    await userEvent.click(dialog.getByRole('button', { name: 'Delete', exact: true }));
    await expect
      .element(reason)
      .toHaveAccessibleDescription(
        expect.stringContaining(
          'Please give the reason for deleting this line clearance, in at least 3 different words',
        ),
      );
    expect(fake.calls).toEqual([]);

    toasts.items = [];
    await reason.fill('The line was merged into Hall 2');
    await userEvent.click(dialog.getByRole('button', { name: 'Delete', exact: true }));
    await expect.element(page.getByText('Line clearance deleted successfully')).toBeVisible();
    expect(sent).toEqual([{ reason: 'The line was merged into Hall 2' }]);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

describe('LC manager: a line’s long description', () => {
  it('keeps its line breaks, cut to a few lines on the card until Show all', async () => {
    const description = Array.from({ length: 40 }, (_, i) => `Step ${i + 1}: clean`).join('\n');
    await render(
      <MyLinesTab
        lines={[{ ...line, description }]}
        loading={false}
        operatorsOf={() => []}
        onAdd={() => {}}
        reload={() => {}}
      />,
    );
    const card = page.getByRole('article');
    await expect.element(card).toBeVisible();
    expect(card.element().querySelectorAll('.user-text-line')).toHaveLength(40);
    const shortHeight = card.element().getBoundingClientRect().height;
    expect(shortHeight).toBeLessThan(500);
    await userEvent.click(page.getByRole('button', { name: 'Show all: Description of My Line' }));
    await expect
      .element(page.getByRole('button', { name: 'Show less: Description of My Line' }))
      .toHaveAttribute('aria-expanded', 'true');
    expect(card.element().getBoundingClientRect().height).toBeGreaterThan(shortHeight + 500);
  });
});
