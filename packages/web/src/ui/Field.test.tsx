import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Field } from './Field.tsx';
import { Select } from './Select.tsx';

describe('Field', () => {
  it('labels its control and marks the optional ones', () => {
    render(
      <Field label="Description" optional>
        {(control) => <input {...control} />}
      </Field>,
    );
    const input = screen.getByRole('textbox', { name: 'Description (optional)' });
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).not.toHaveAttribute('aria-describedby');
  });

  it('ties the hint and the error to the control and marks it invalid', () => {
    render(
      <Field label="Track number" hint="Digits only." error="The track number is digits only.">
        {(control) => <input {...control} />}
      </Field>,
    );
    const input = screen.getByRole('textbox', { name: 'Track number' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Digits only. The track number is digits only.');
  });

  it('marks the control invalid without a message when the form gives it', () => {
    render(
      <Field label="Name" invalid>
        {(control) => <input {...control} />}
      </Field>,
    );
    const input = screen.getByRole('textbox', { name: 'Name' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).not.toHaveAttribute('aria-describedby');
  });
});

describe('Select', () => {
  it('offers the placeholder with the value "" and then the options', () => {
    render(
      <Select
        aria-label="Minimum tier"
        value=""
        onChange={() => {}}
        placeholder="Minimum tier..."
        options={[
          { value: 'gold', label: 'Gold' },
          { value: 'silver', label: 'Silver' },
        ]}
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Minimum tier' });
    expect(select).toHaveClass('select');
    expect(select).toHaveDisplayValue('Minimum tier...');
    expect([...(select as HTMLSelectElement).options].map((o) => [o.value, o.text])).toEqual([
      ['', 'Minimum tier...'],
      ['gold', 'Gold'],
      ['silver', 'Silver'],
    ]);
  });
});
