import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmPopup } from './ConfirmPopup.tsx';
import { Modal } from './Modal.tsx';
import { popupStack } from './popup-stack.ts';

afterEach(() => act(() => popupStack.clear()));

describe('popup stack', () => {
  it('never goes below 0', () => {
    act(() => {
      popupStack.pop();
      popupStack.pop();
    });
    expect(popupStack.level()).toBe(0);
    act(() => popupStack.push());
    expect(popupStack.level()).toBe(1);
  });

  it('locks page scrolling while any popup is open and clears to 0', () => {
    act(() => {
      popupStack.push();
      popupStack.push();
    });
    expect(document.body.style.overflow).toBe('hidden');
    act(() => popupStack.pop());
    expect(document.body.style.overflow).toBe('hidden');
    act(() => popupStack.clear());
    expect(popupStack.level()).toBe(0);
    expect(document.body.style.overflow).toBe('');
  });
});

describe('Modal', () => {
  it('shows its title and counts itself on the stack while open', () => {
    const { rerender } = render(
      <Modal open title="Hello" onClose={() => {}}>
        body
      </Modal>,
    );
    expect(screen.getByRole('dialog', { name: 'Hello' })).toBeInTheDocument();
    expect(popupStack.level()).toBe(1);
    expect(document.body.style.overflow).toBe('hidden');
    rerender(
      <Modal open={false} title="Hello" onClose={() => {}}>
        body
      </Modal>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(popupStack.level()).toBe(0);
    expect(document.body.style.overflow).toBe('');
  });

  it('closes on a click outside but not on a click inside', () => {
    const onClose = vi.fn();
    render(
      <Modal open title="Hello" onClose={onClose}>
        <p>inside</p>
      </Modal>,
    );
    fireEvent.mouseDown(screen.getByText('inside'));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.mouseDown(screen.getByTestId('popup-backdrop'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes with the close icon', () => {
    const onClose = vi.fn();
    render(
      <Modal open title="Hello" onClose={onClose}>
        body
      </Modal>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes only the topmost popup on Escape', () => {
    const outer = vi.fn();
    const inner = vi.fn();
    render(
      <>
        <Modal open title="Outer" onClose={outer}>
          outer
        </Modal>
        <Modal open title="Inner" onClose={inner}>
          inner
        </Modal>
      </>,
    );
    expect(popupStack.level()).toBe(2);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(inner).toHaveBeenCalledTimes(1);
    expect(outer).not.toHaveBeenCalled();
  });

  it('keeps Tab focus inside the popup', () => {
    render(
      <Modal open title="Hello" onClose={() => {}} footer={<button type="button">Last</button>}>
        body
      </Modal>,
    );
    const close = screen.getByRole('button', { name: 'Close' });
    const last = screen.getByRole('button', { name: 'Last' });
    last.focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
  });
});

describe('ConfirmPopup', () => {
  it('is 400 px wide and answers confirm and cancel', () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(
      <ConfirmPopup
        open
        title="Delete?"
        message="Sure?"
        confirmLabel="Delete"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
    expect(screen.getByRole('dialog', { name: 'Delete?' })).toHaveStyle({ maxWidth: '400px' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
