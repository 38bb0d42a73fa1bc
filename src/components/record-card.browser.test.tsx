import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { DESKTOP_AND_PHONE, LONGWORD, pageWidth, within } from '../../tests/web/long-text.ts';
import { cleanup, render } from '../../tests/web/render.tsx';
import { CardGrid, RecordCard, RecordField } from './record-card.tsx';
import { RoleTags, TagList } from './tag.tsx';

afterEach(cleanup);

const records = Array.from({ length: 5000 }, (_, index) => ({ id: index + 1 }));

/** A grid of cards, with a filter button that keeps the list and changes the filter key. */
function Grid({ items }: { items: readonly { id: number }[] }) {
  const [filter, setFilter] = useState('a');
  return (
    <CardGrid
      toolbar={
        <button type="button" onClick={() => setFilter((previous) => `${previous}a`)}>
          Change filter
        </button>
      }
      items={items}
      loading={false}
      filterKey={filter}
      noun={['record', 'records']}
      render={(item) => (
        <RecordCard key={item.id} title={`Record ${item.id}`}>
          <RecordField label="ID">{item.id}</RecordField>
        </RecordCard>
      )}
    />
  );
}

describe('CardGrid', () => {
  it('brings the new page’s start into view when the pager below the cards turns it', async () => {
    await render(<Grid items={records} />);
    const next = page.getByRole('button', { name: 'Next page' });
    await expect.element(next).toBeInTheDocument();
    (next.element() as HTMLElement).scrollIntoView({ block: 'end' });
    const count = page.getByText(/^1–24 of 5000 records/).element() as HTMLElement;
    expect(count.getBoundingClientRect().top).toBeLessThan(0);
    await userEvent.click(next);
    const turned = page.getByText(/^25–48 of 5000 records/);
    await expect.element(turned).toBeVisible();
    await expect
      .poll(() => (turned.element() as HTMLElement).getBoundingClientRect().top)
      .toBeGreaterThanOrEqual(0);
  });

  it('draws one page of a long list, says how many in all, and pages with the pager', async () => {
    await render(<Grid items={records} />);
    await expect.element(page.getByText('1–24 of 5000 records · Page 1 of 209')).toBeVisible();
    expect(page.getByRole('article').all()).toHaveLength(24);
    // A plant's list drawn whole was 639,060 elements for 20,006 videos.
    const elements = document.body.querySelectorAll('*').length;
    console.info(`CardGrid, 5000 items: ${elements} DOM elements`);
    expect(elements).toBeLessThan(500);
    const previous = page.getByRole('button', { name: 'Previous page' });
    await expect.element(previous).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(page.getByRole('button', { name: 'Next page' }));
    await expect.element(page.getByText('25–48 of 5000 records · Page 2 of 209')).toBeVisible();
    await expect
      .element(page.getByRole('heading', { name: 'Record 25', exact: true }))
      .toBeVisible();
    expect(page.getByRole('heading', { name: 'Record 24', exact: true }).query()).toBeNull();
    await expect.element(page.getByRole('button', { name: 'Next page' })).toHaveFocus();
  });

  it('shows the first page again when the filter changes', async () => {
    await render(<Grid items={records} />);
    await userEvent.click(page.getByRole('button', { name: 'Next page' }));
    await userEvent.click(page.getByRole('button', { name: 'Next page' }));
    await expect.element(page.getByText('49–72 of 5000 records · Page 3 of 209')).toBeVisible();
    await userEvent.click(page.getByRole('button', { name: 'Change filter' }));
    await expect.element(page.getByText('1–24 of 5000 records · Page 1 of 209')).toBeVisible();
    await expect
      .element(page.getByRole('heading', { name: 'Record 1', exact: true }))
      .toBeVisible();
  });

  it('says the count and shows no pager when one page holds the list', async () => {
    await render(<Grid items={records.slice(0, 3)} />);
    await expect.element(page.getByText('3 records')).toBeVisible();
    expect(page.getByRole('article').all()).toHaveLength(3);
    expect(page.getByRole('navigation', { name: 'Pages' }).query()).toBeNull();
  });
});

describe('RecordCard with a name of one long word', () => {
  afterEach(() => page.viewport(414, 896));

  for (const [width, height] of DESKTOP_AND_PHONE) {
    it(`wraps the title and keeps every tag inside the card at ${width} px`, async () => {
      await page.viewport(width, height);
      await render(
        <div className="card-grid">
          <RecordCard title={LONGWORD} tags={<RoleTags role={['lc_manager', 'operator']} />}>
            <RecordField label="Manages">
              <TagList names={[LONGWORD, 'Blister Line 1']} empty="None" />
            </RecordField>
          </RecordCard>
        </div>,
      );
      const title = page.getByRole('heading', { name: LONGWORD });
      await expect.element(title).toBeVisible();
      const card = page.getByRole('article').element();
      expect(pageWidth()).toBeLessThanOrEqual(width);
      expect(within(title.element(), card)).toBe(true);
      const tags = [...card.querySelectorAll('.tag')];
      expect(tags).toHaveLength(4);
      for (const tag of tags) expect(within(tag, card), tag.textContent ?? '').toBe(true);
    });
  }
});

describe('RecordField with a record id', () => {
  /** How many characters each line of the element's text holds, as drawn. */
  function lineLengths(element: Element): number[] {
    const text = element.firstChild as Text;
    const range = document.createRange();
    const tops = new Map<number, number>();
    for (let i = 0; i < text.length; i++) {
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      const top = Math.round(range.getBoundingClientRect().top);
      tops.set(top, (tops.get(top) ?? 0) + 1);
    }
    return [...tops.values()];
  }

  it('wraps an id that does not fit into even lines, never leaving one character alone', async () => {
    const id = 'f575a3b6065a9b66d79f6a72';
    // Cards as narrow as the grid makes them, up to as wide as the id needs (QA: '…f6a7 / 2').
    for (let width = 300; width <= 400; width += 4) {
      await render(
        <div style={{ width: `${width}px` }}>
          <RecordCard title="Blister Line 1">
            <RecordField label="ID" recordId>
              {id}
            </RecordField>
          </RecordCard>
        </div>,
      );
      const value = page.getByText(id).element();
      const lines = lineLengths(value);
      expect(lines.reduce((sum, n) => sum + n, 0)).toBe(id.length);
      expect(Math.min(...lines), `${lines.join(' / ')} at ${width} px`).toBeGreaterThanOrEqual(
        lines.length > 1 ? 8 : id.length,
      );
      await cleanup();
    }
  });
});
