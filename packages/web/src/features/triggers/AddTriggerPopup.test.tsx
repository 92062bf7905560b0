import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser, trigger } from '../../test/testing.tsx';
import { AddTriggerPopup } from './AddTriggerPopup.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('AddTriggerPopup', () => {
  it('sends nothing without a name', () => {
    const { fetch } = renderWithProviders(<AddTriggerPopup open onClose={() => {}} />, { user: selfUser() });
    fireEvent.click(screen.getByRole('button', { name: 'Add trigger' }));
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('caps the description at 250 characters with a counter', () => {
    renderWithProviders(<AddTriggerPopup open onClose={() => {}} />, { user: selfUser() });
    const description = screen.getByRole('textbox', { name: 'Description' });
    expect(screen.getByText('0/250')).toBeInTheDocument();
    fireEvent.change(description, { target: { value: 'x'.repeat(300) } });
    expect(description).toHaveValue('x'.repeat(250));
    expect(screen.getByText('250/250')).toBeInTheDocument();
  });

  it('adds the trigger, says so and closes', async () => {
    const onClose = vi.fn();
    const { fetch } = renderWithProviders(<AddTriggerPopup open onClose={onClose} />, {
      user: selfUser(),
      fetchImpl: () => json(201, { trigger: trigger({ name: 'Float', description: 'Light.' }) }),
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: ' Float ' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Description' }), { target: { value: 'Light.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add trigger' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.getByText('Trigger added!')).toBeInTheDocument();
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/triggers');
    expect(JSON.parse(String(init?.body))).toEqual({ name: 'Float', description: 'Light.' });
  });

  it('says the trigger was requested when it waits for approval', async () => {
    const onClose = vi.fn();
    renderWithProviders(<AddTriggerPopup open onClose={onClose} />, {
      user: selfUser(),
      fetchImpl: () => json(201, { trigger: trigger({ name: 'Float', pending: true }) }),
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Float' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add trigger' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.getByText('Trigger requested!')).toBeInTheDocument();
  });
});
