import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Pagination } from './Pagination.tsx';

function setup(pageOffset = 0, totalItems = 50, pageSize = 10) {
  const onChange = vi.fn();
  render(
    <Pagination pageOffset={pageOffset} pageSize={pageSize} totalItems={totalItems} onChange={onChange} />,
  );
  return { onChange, input: screen.queryByRole('textbox', { name: 'Page' }) as HTMLInputElement };
}

describe('Pagination', () => {
  it('is shown only when totalItems exceeds pageSize', () => {
    const { input } = setup(0, 10, 10);
    expect(input).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('shows the current page and "of N" with N rounded up', () => {
    const { input } = setup(20, 41, 10);
    expect(input.value).toBe('3');
    expect(screen.getByText('of 5')).toBeInTheDocument();
  });

  it('commits a page in range on Enter as an item offset', () => {
    const { input, onChange } = setup();
    fireEvent.change(input, { target: { value: '4' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledWith(30);
  });

  it('commits on blur', () => {
    const { input, onChange } = setup();
    fireEvent.change(input, { target: { value: '2' } });
    fireEvent.blur(input);
    expect(onChange).toHaveBeenCalledWith(10);
  });

  it.each(['0', '6', '-1', '2.5', 'abc'])('resets the input to the current page for %s', (typed) => {
    const { input, onChange } = setup(10);
    fireEvent.change(input, { target: { value: typed } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).not.toHaveBeenCalled();
    expect(input.value).toBe('2');
  });

  it('treats an empty input as null: nothing is committed', () => {
    const { input, onChange } = setup(10);
    fireEvent.change(input, { target: { value: '' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).not.toHaveBeenCalled();
    expect(input.value).toBe('');
    fireEvent.blur(input);
    expect(onChange).not.toHaveBeenCalled();
    expect(input.value).toBe('2');
  });

  it('does not call onChange when the typed page is the current one', () => {
    const { input, onChange } = setup(10);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).not.toHaveBeenCalled();
  });

  it('moves with the arrows and disables them at the ends', () => {
    const first = setup(0);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(first.onChange).toHaveBeenCalledWith(10);
  });

  it('disables next on the last page and goes back with previous', () => {
    const { onChange } = setup(40);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(onChange).toHaveBeenCalledWith(30);
  });

  it('follows a new pageOffset from the parent', () => {
    const onChange = vi.fn();
    const { rerender } = render(
      <Pagination pageOffset={0} pageSize={10} totalItems={50} onChange={onChange} />,
    );
    rerender(<Pagination pageOffset={20} pageSize={10} totalItems={50} onChange={onChange} />);
    expect((screen.getByRole('textbox', { name: 'Page' }) as HTMLInputElement).value).toBe('3');
  });
});
