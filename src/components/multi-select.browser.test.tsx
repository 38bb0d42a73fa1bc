import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../tests/web/render.tsx';
import { MultiSelect } from './multi-select.tsx';

afterEach(cleanup);

const options = ['Blister line', 'Bottling line', 'Cartoner', 'Capper'].map((label, index) => ({
  value: String(index),
  label,
}));

function Lines() {
  const [value, setValue] = useState<string[]>([]);
  return (
    <MultiSelect
      label="Line clearances"
      options={options}
      value={value}
      onChange={setValue}
      placeholder="Select line clearances"
    />
  );
}

describe('MultiSelect', () => {
  it('lists options in a 200px scroll panel, jumps by type-ahead and counts past 3', async () => {
    await render(<Lines />);
    await userEvent.click(
      page.getByRole('button', { name: 'Line clearances: Select line clearances' }),
    );
    const first = page.getByRole('checkbox', { name: 'Blister line' });
    await userEvent.click(first);
    const list = document.querySelector('.multi-select-list') as HTMLElement;
    expect(getComputedStyle(list).maxHeight).toBe('200px');
    await userEvent.keyboard('bo');
    await expect.element(page.getByRole('checkbox', { name: 'Bottling line' })).toHaveFocus();
    for (const name of ['Bottling line', 'Cartoner', 'Capper']) {
      await userEvent.click(page.getByRole('checkbox', { name }));
    }
    await expect
      .element(page.getByRole('button', { name: 'Line clearances: 4 items selected' }))
      .toBeInTheDocument();
  });

  it('opens as a dialog named by its field', async () => {
    await render(<Lines />);
    await userEvent.click(
      page.getByRole('button', { name: 'Line clearances: Select line clearances' }),
    );
    await expect.element(page.getByRole('dialog', { name: 'Line clearances' })).toBeVisible();
  });
});
