import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEXTAREA_EXTRA, TEXTAREA_INITIAL_HEIGHT, Textarea } from './Textarea.tsx';

/** jsdom does no layout, so the content height is faked. */
function fakeScrollHeight(px: number) {
  vi.spyOn(HTMLTextAreaElement.prototype, 'scrollHeight', 'get').mockReturnValue(px);
}

afterEach(() => vi.restoreAllMocks());

describe('Textarea', () => {
  it('starts 80 px high and grows 6 px beyond its content', () => {
    expect(TEXTAREA_INITIAL_HEIGHT).toBe(80);
    expect(TEXTAREA_EXTRA).toBe(6);
    fakeScrollHeight(40);
    const { rerender } = render(<Textarea aria-label="Bio" value="short" onChange={() => {}} />);
    const el = screen.getByRole('textbox', { name: 'Bio' });
    expect(el.style.height).toBe('80px');
    fakeScrollHeight(150);
    rerender(<Textarea aria-label="Bio" value={'long\n'.repeat(8)} onChange={() => {}} />);
    expect(el.style.height).toBe('156px');
  });

  it('shrinks back to 80 px when the content gets short again', () => {
    fakeScrollHeight(150);
    const { rerender } = render(<Textarea aria-label="Bio" value={'x\n'.repeat(8)} onChange={() => {}} />);
    const el = screen.getByRole('textbox', { name: 'Bio' });
    expect(el.style.height).toBe('156px');
    fakeScrollHeight(80);
    rerender(<Textarea aria-label="Bio" value="x" onChange={() => {}} />);
    expect(el.style.height).toBe('80px');
  });

  it('grows while typing when uncontrolled and still calls onInput', () => {
    const onInput = vi.fn();
    render(<Textarea aria-label="Note" onInput={onInput} />);
    const el = screen.getByRole('textbox', { name: 'Note' });
    fakeScrollHeight(100);
    fireEvent.input(el, { target: { value: 'a\nb\nc\nd' } });
    expect(el.style.height).toBe('106px');
    expect(onInput).toHaveBeenCalledTimes(1);
  });
});
