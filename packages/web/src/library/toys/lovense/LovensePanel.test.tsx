import { LOVENSE_NOT_CONFIGURED } from '@mesmer/shared/api/lovense';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser } from '../../../test/testing.tsx';
import { LovensePanel, PAIRING_POLL_MS } from './LovensePanel.tsx';

afterEach(() => vi.unstubAllGlobals());

const QR = { qrcodeUrl: 'data:image/png;base64,iVBORw0KGgo=', code: 'FAKE123' };
const TOYS = [
  { id: 'ab12', name: 'Lush', connected: true },
  { id: 'cd34', name: 'Hush', connected: false },
];

describe('the Lovense panel', () => {
  it('shows the QR code and its code, lists the toys once the app reports in, and Test posts', async () => {
    let scanned = false;
    const { fetch } = renderWithProviders(<LovensePanel />, {
      user: selfUser(),
      fetchImpl: (input, init) => {
        const url = String(input);
        const method = init?.method ?? 'GET';
        if (method === 'POST' && url === '/api/lovense/qr') return json(200, QR);
        if (method === 'POST' && url === '/api/lovense/test') return json(204, null);
        if (method === 'GET' && url === '/api/lovense/toys') {
          return json(200, scanned ? { connected: true, toys: TOYS } : { connected: false, toys: [] });
        }
        return json(404, { error: 'Not found.' });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Connect Lovense' }));
    const popup = await screen.findByRole('dialog', { name: 'Connect Lovense' });
    const image = await within(popup).findByRole('img', { name: 'Lovense pairing QR code' });
    expect(image).toHaveAttribute('src', QR.qrcodeUrl);
    expect(within(popup).getByText('FAKE123')).toBeInTheDocument();
    expect(within(popup).getByText(/Scan with the Lovense Remote app/)).toBeInTheDocument();

    // The phone scans; the next poll finds the toys and the popup closes.
    scanned = true;
    const list = await screen.findByRole('list', { name: 'Lovense toys' }, { timeout: PAIRING_POLL_MS * 2 });
    // The popup closes from an effect, which runs after the paint that shows the list.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['LushConnected', 'HushDisconnected']);
    expect(screen.getByText('Lovense connected!')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Test' }));
    await vi.waitFor(() =>
      expect(
        fetch.mock.calls.filter(([, init]) => init?.method === 'POST').map(([url]) => String(url)),
      ).toEqual(['/api/lovense/qr', '/api/lovense/test']),
    );
  });

  it('disconnects: the toys go and Connect Lovense comes back', async () => {
    renderWithProviders(<LovensePanel />, {
      user: selfUser(),
      fetchImpl: (_input, init) =>
        init?.method === 'DELETE' ? json(204, null) : json(200, { connected: true, toys: TOYS }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByRole('button', { name: 'Connect Lovense' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Lovense toys' })).toBeNull();
  });

  it('says so when the server has no Lovense developer token', async () => {
    renderWithProviders(<LovensePanel />, {
      user: selfUser(),
      fetchImpl: () => json(503, { error: LOVENSE_NOT_CONFIGURED }),
    });
    expect(await screen.findByText(new RegExp(LOVENSE_NOT_CONFIGURED))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Connect Lovense' })).toBeNull();
  });
});
