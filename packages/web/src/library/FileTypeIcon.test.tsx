import fs from 'node:fs';
import path from 'node:path';
import { FILE_TYPES, fileTypeIconPath } from '@mesmer/shared/domain/file-types';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ChipChoices } from './ChipChoices.tsx';
import { FileTypeIcon } from './FileTypeIcon.tsx';

const publicDir = path.resolve(import.meta.dirname, '../../public');

describe('file type icons', () => {
  it.each(FILE_TYPES)('ships images/$id.svg for $name, drawn in currentColor', ({ id, name }) => {
    expect(fileTypeIconPath(id)).toBe(`/images/${id}.svg`);
    const svg = fs.readFileSync(path.join(publicDir, fileTypeIconPath(id)), 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* viewBox="0 0 24 24"/);
    expect(svg).toContain('stroke="currentColor"');
    expect(svg).toContain(`<title>${name}</title>`);
    expect(svg).not.toMatch(/#[0-9a-f]{3,6}\b|<script|href=/i);
  });

  it('paints the icon from images/{fileType}.svg, decorative unless labelled', () => {
    const { container } = render(<FileTypeIcon typeId={7} size={20} />);
    const icon = container.firstElementChild as HTMLElement;
    expect(icon.style.getPropertyValue('--type-icon')).toBe('url("/images/7.svg")');
    expect(icon).toHaveAttribute('aria-hidden', 'true');
    expect(icon.style.width).toBe('20px');
    render(<FileTypeIcon typeId={1} label="Induction" />);
    expect(screen.getByRole('img', { name: 'Induction' }).style.getPropertyValue('--type-icon')).toBe(
      'url("/images/1.svg")',
    );
  });

  it('shows in a file type chip before its label', () => {
    const onToggle = vi.fn();
    render(
      <ChipChoices
        choices={[{ id: 2, label: 'Deepener', icon: <FileTypeIcon typeId={2} /> }]}
        chosen={[]}
        onToggle={onToggle}
      />,
    );
    const chip = screen.getByRole('button', { name: 'Deepener' });
    expect((chip.firstElementChild as HTMLElement).style.getPropertyValue('--type-icon')).toBe(
      'url("/images/2.svg")',
    );
    fireEvent.click(chip);
    expect(onToggle).toHaveBeenCalledWith(2);
  });
});
