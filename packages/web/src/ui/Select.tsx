import type { SelectHTMLAttributes } from 'react';

export interface SelectOption {
  value: string | number;
  label: string;
}

/**
 * A native select with its choices as data. `placeholder` is a first option with the value '',
 * shown while nothing is chosen; forms treat it as no choice.
 */
export function Select({
  options,
  placeholder,
  className,
  ...props
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'children'> & {
  options: readonly SelectOption[];
  placeholder?: string;
}) {
  return (
    <select className={className ? `select ${className}` : 'select'} {...props}>
      {placeholder !== undefined && <option value="">{placeholder}</option>}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
