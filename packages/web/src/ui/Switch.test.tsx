import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Avatar } from './Avatar.tsx';
import { Checkbox } from './Checkbox.tsx';
import { Switch } from './Switch.tsx';

describe('Switch', () => {
  it('is a labelled switch that reports the opposite state', () => {
    const onChange = vi.fn();
    render(
      <Switch label="Censor trigger words" description="Hides letters" checked={false} onChange={onChange} />,
    );
    const sw = screen.getByRole('switch', { name: 'Censor trigger words' });
    expect(sw).toHaveAttribute('aria-checked', 'false');
    expect(sw).toHaveAccessibleDescription('Hides letters');
    fireEvent.click(sw);
    expect(onChange).toHaveBeenCalledWith(true);
  });

  it('does nothing while disabled', () => {
    const onChange = vi.fn();
    render(<Switch label="Hide locked files" checked onChange={onChange} disabled />);
    fireEvent.click(screen.getByRole('switch', { name: 'Hide locked files' }));
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('Checkbox', () => {
  it('is checked through its label', () => {
    const onChange = vi.fn();
    render(<Checkbox label="Remember me" checked={false} onChange={onChange} />);
    fireEvent.click(screen.getByText('Remember me'));
    expect(onChange).toHaveBeenCalledWith(true);
    expect(screen.getByRole('checkbox', { name: 'Remember me' })).not.toBeChecked();
  });
});

describe('Avatar', () => {
  it('shows the picture when there is one', () => {
    const { container } = render(<Avatar name="luna" imageURL="/media/luna.png" />);
    expect(container.querySelector('img')).toHaveAttribute('src', '/media/luna.png');
  });

  it('falls back to the first letter, or ? without a name', () => {
    const { container, rerender } = render(<Avatar name="luna" />);
    expect(container).toHaveTextContent('L');
    rerender(<Avatar name={null} />);
    expect(container).toHaveTextContent('?');
  });
});
