import { fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser, trigger } from '../test/testing.tsx';
import { TriggerPicker } from './TriggerPicker.tsx';

afterEach(() => vi.unstubAllGlobals());

const sleep = trigger({ id: 11, name: 'Sleep' });
const obey = trigger({ id: 12, name: 'Obey' });
const requested = trigger({ id: 13, name: 'Requested', pending: true });
const triggersApi = (url: RequestInfo | URL) =>
  String(url) === '/api/triggers'
    ? json(200, { triggers: [sleep, obey, requested] })
    : json(404, { error: 'Not found.' });

/** A picker that keeps its own choice, as its hosts do. */
function Host(props: Partial<Parameters<typeof TriggerPicker>[0]>) {
  const [ids, setIds] = useState<number[]>([]);
  return (
    <TriggerPicker
      label="Include triggers"
      selected={ids}
      onAdd={(id) => setIds((x) => [...x, id])}
      onRemove={(id) => setIds((x) => x.filter((y) => y !== id))}
      {...props}
    />
  );
}

const optionNames = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((o) => o.textContent);

describe('TriggerPicker', () => {
  it('adds chosen triggers as chips, offers each once and removes them again', async () => {
    renderWithProviders(<Host exclude={[12]} />, { fetchImpl: triggersApi });
    const select = await screen.findByRole('combobox', { name: 'Include triggers' });
    // Obey is chosen in the sibling picker; a pending request may still be picked here.
    expect(optionNames(select)).toEqual(['Add a trigger...', 'Sleep', 'Requested']);
    fireEvent.change(select, { target: { value: '11' } });
    expect(within(screen.getByRole('list')).getByText('Sleep')).toBeInTheDocument();
    expect(optionNames(select)).toEqual(['Add a trigger...', 'Requested']);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Sleep' }));
    expect(within(screen.getByRole('list')).queryByText('Sleep')).toBeNull();
  });

  it('shows rows with the host’s controls and offers published triggers only when asked', async () => {
    renderWithProviders(
      <Host
        label="Add a trigger"
        publishedOnly
        rowControls={(_, name) => <input type="checkbox" aria-label={`Trains ${name}`} />}
      />,
      { fetchImpl: triggersApi },
    );
    const select = await screen.findByRole('combobox', { name: 'Add a trigger' });
    expect(optionNames(select)).toEqual(['Add a trigger...', 'Sleep', 'Obey']);
    fireEvent.change(select, { target: { value: '12' } });
    expect(screen.getByRole('checkbox', { name: 'Trains Obey' })).toBeInTheDocument();
  });

  it('censors names for viewers who asked, and names chosen ones before the list arrives', async () => {
    let answer: (r: Response) => void = () => {};
    renderWithProviders(
      <TriggerPicker
        label="Add a trained trigger"
        selected={[11]}
        known={[{ id: 11, name: 'Sleep' }]}
        removeLabel={(name) => `Remove ${name} from Trained`}
        onAdd={() => {}}
        onRemove={() => {}}
      />,
      {
        user: selfUser({ censorTriggers: true }),
        fetchImpl: () => new Promise<Response>((resolve) => (answer = resolve)),
      },
    );
    expect(screen.getByRole('button', { name: 'Remove S***p from Trained' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading triggers' })).toBeInTheDocument();
    answer(await triggersApi('/api/triggers'));
    const select = await screen.findByRole('combobox', { name: 'Add a trained trigger' });
    expect(optionNames(select)).toEqual(['Add a trigger...', 'O**y', 'R*******d']);
  });

  it('says when the list could not be loaded', async () => {
    renderWithProviders(<Host />, { fetchImpl: () => json(500, { error: 'Down.' }) });
    const select = await screen.findByRole('combobox', { name: 'Include triggers' });
    expect(select).toBeDisabled();
    expect(optionNames(select)).toEqual(['Triggers could not be loaded']);
  });
});
