import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../tests/web/render.tsx';
import { TextField } from '../components/field.tsx';
import { toasts } from '../stores/toasts.ts';
import { useFieldErrors } from './use-field-errors.ts';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
});

/** Two required fields, checked on Check as the app's dialogs do. */
function TwoFields() {
  const [values, setValues] = useState({ name: '', email: '' });
  const fields = useFieldErrors<'name' | 'email'>();
  return (
    <>
      <TextField
        label="Name"
        value={values.name}
        onChange={(name) => setValues({ ...values, name })}
        {...fields.textField('name')}
      />
      <TextField
        label="Email"
        value={values.email}
        onChange={(email) => setValues({ ...values, email })}
        {...fields.textField('email')}
      />
      <button
        type="button"
        onClick={() => {
          fields.clear();
          fields.warnIfBlank('Please fill in every field', values);
        }}
      >
        Check
      </button>
    </>
  );
}

describe('useFieldErrors', () => {
  it('takes an error away from the field being edited, keeps the typed value and the other error', async () => {
    await render(<TwoFields />);
    const name = page.getByLabelText('Name');
    const email = page.getByLabelText('Email');
    const check = page.getByRole('button', { name: 'Check' });
    await userEvent.click(check);
    await expect.element(name).toHaveAttribute('aria-invalid', 'true');
    await expect.element(email).toHaveAttribute('aria-invalid', 'true');

    await userEvent.fill(name, 'Tablet Line 4');
    await expect.element(name).toHaveValue('Tablet Line 4');
    await expect.element(name).not.toHaveAttribute('aria-invalid');
    await expect.element(email).toHaveAttribute('aria-invalid', 'true');

    // Emptied again, the field is blank again: the next check says so.
    await userEvent.clear(name);
    await userEvent.click(check);
    await expect.element(name).toHaveAttribute('aria-invalid', 'true');
    await expect.element(name).toHaveFocus();
  });
});
