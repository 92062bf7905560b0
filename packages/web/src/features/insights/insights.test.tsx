import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, selfUser } from '../../test/testing.tsx';
import { WITHHELD_TEXT } from './ChartFrame.tsx';
import CreatorInsightsPage from './CreatorInsightsPage.tsx';
import { FileInsightsPanel } from './FileInsightsPanel.tsx';
import {
  catalogueInsights,
  listeningInsights,
  shownFileInsights,
  siteInsights,
  withheldFileInsights,
} from './insights.test-data.ts';
import ListeningPage from './ListeningPage.tsx';
import SiteInsightsPage from './SiteInsightsPage.tsx';

// uPlot draws on a canvas, which jsdom has not: the charts' tables and texts are what the tests read.
vi.mock('uplot', () => ({
  default: class {
    setSize() {}
    destroy() {}
  },
}));

const creator = selfUser({ id: 9, username: 'creator', roles: [] });
const admin = selfUser({
  id: 1,
  username: 'owner',
  roles: [{ name: 'Administrator', showBadge: true, textColor: '#000000', background: '#FC688F' }],
});

/** The rows of the table named `name` (its caption), as text cells, header first. */
function tableRows(name: string): string[][] {
  const table = screen.getByRole('table', { name });
  return [...table.querySelectorAll('tr')].map((row) =>
    [...row.querySelectorAll('th, td')].map((c) => c.textContent ?? ''),
  );
}

/** Captures what "Download CSV" saves: the file name and the blob's text (jsdom has no object URLs). */
function captureDownloads() {
  const saved: { name: string; text: Promise<string> }[] = [];
  let lastBlob: Blob | null = null;
  const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  URL.createObjectURL = (b: Blob) => {
    lastBlob = b;
    return 'blob:x';
  };
  URL.revokeObjectURL = () => {};
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    const blob = lastBlob;
    if (!blob) return;
    const text = new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blob);
    });
    saved.push({ name: this.download, text });
  });
  return {
    saved,
    restore: () => {
      click.mockRestore();
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
    },
  };
}

beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('file insights panel', () => {
  it('shows the plays but withholds the curves below 5 listeners, with no table or CSV to leak them', async () => {
    const { fetch } = renderWithProviders(<FileInsightsPanel fileId={41} />, {
      user: creator,
      fetchImpl: () => json(200, withheldFileInsights()),
    });
    expect(await screen.findAllByText(WITHHELD_TEXT)).toHaveLength(3);
    expect(WITHHELD_TEXT).toBe('Shown once at least 5 people have listened.');
    expect(String(fetch.mock.calls[0][0])).toBe('/api/insights/files/41?period=28&bucket=day');
    const plays = screen.getByText('Plays').closest('div') as HTMLElement;
    expect(within(plays).getByText('4')).toBeInTheDocument();
    expect(within(plays).getByText('new vs previous 7 days')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Download CSV/ })).not.toBeInTheDocument();
    expect(screen.getByText('No public playlist holds this file yet.')).toBeInTheDocument();
  });

  it('offers the retention curve as a table, and downloads exactly that table as CSV', async () => {
    renderWithProviders(<FileInsightsPanel fileId={41} />, {
      user: creator,
      fetchImpl: () => json(200, shownFileInsights()),
    });
    await screen.findByRole('table', { name: 'Retention' });
    const rows = tableRows('Retention');
    expect(rows[0]).toEqual(['Position', 'Still listening']);
    expect(rows).toHaveLength(101);
    expect(rows[1]).toEqual(['0:00', '100%']);
    expect(rows[50]).toEqual(['0:49', '100%']);
    expect(rows[51]).toEqual(['0:50', '75%']);
    expect(rows[76]).toEqual(['1:15', '25%']);
    expect(
      screen.getByText(
        '100% of plays heard the start and 25% the end. The steepest drop, 50% of listeners, is at 1:15.',
      ),
    ).toBeInTheDocument();
    const figure = screen.getByRole('figure', { name: 'Retention' });
    expect(figure).toHaveAttribute('tabindex', '0');

    const { saved, restore } = captureDownloads();
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV: Retention' }));
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV: Where plays come from' }));
    restore();
    expect(saved.map((s) => s.name)).toEqual(['retention.csv', 'where-plays-come-from.csv']);
    const retentionCsv = await saved[0].text;
    expect(retentionCsv.startsWith('Position,Still listening\r\n0:00,100%\r\n')).toBe(true);
    expect(retentionCsv.split('\r\n')).toHaveLength(102);
    expect(await saved[1].text).toBe('Source,Plays,Share\r\nFile page,5,63%\r\nCore playlist,3,38%\r\n');
  });

  it('shows the figures against the previous period and the table toggles into view', async () => {
    renderWithProviders(<FileInsightsPanel fileId={41} />, {
      user: creator,
      fetchImpl: () => json(200, shownFileInsights()),
    });
    expect(await screen.findByText('+100% vs previous 7 days')).toBeInTheDocument();
    expect(screen.getByText('1 h 5 min')).toBeInTheDocument();
    expect(screen.getByText('69%')).toBeInTheDocument();
    const toggle = screen.getAllByRole('button', { name: 'Show table' })[0];
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveTextContent('Hide table');
    const plays = tableRows('Plays and unique listeners');
    expect(plays[0]).toEqual(['Day', 'Plays', 'Unique listeners', 'Plays, previous 7 days']);
    expect(plays[3]).toEqual(['2026-11-24', '0', '0', '4']);
    expect(plays[7]).toEqual(['2026-11-28', '8', '8', '0']);
    // The previous period is drawn dashed beside this one, and said in the text.
    const legend = screen.getByText('Plays, previous 7 days', { selector: 'li' });
    expect(legend.querySelector('span')?.className).toMatch(/swatchDashed/);
    expect(screen.getByText(/^8 plays over 7 days; .* 4 in the previous 7 days\.$/)).toBeInTheDocument();
    // A playlist name is text, never markup.
    expect(screen.getByRole('link', { name: 'Night <b>mix</b>' })).toHaveAttribute(
      'href',
      '/playlist/00000000-0000-4000-8000-000000000003',
    );
  });

  it("draws the previous period's listeners dashed when it had enough to show", async () => {
    const body = shownFileInsights();
    if (body.audience.withheld) throw new Error('the fixture shows its audience');
    body.audience.listeners = { current: 8, previous: 6 };
    body.audience.series = body.audience.series.map((p, i) => ({ ...p, previousListeners: i === 2 ? 3 : 0 }));
    renderWithProviders(<FileInsightsPanel fileId={41} />, {
      user: creator,
      fetchImpl: () => json(200, body),
    });
    const legend = await screen.findByText('Unique listeners, previous 7 days', { selector: 'li' });
    expect(legend.querySelector('span')?.className).toMatch(/swatchDashed/);
    fireEvent.click(screen.getAllByRole('button', { name: 'Show table' })[0]);
    const plays = tableRows('Plays and unique listeners');
    expect(plays[0]).toEqual([
      'Day',
      'Plays',
      'Unique listeners',
      'Plays, previous 7 days',
      'Unique listeners, previous 7 days',
    ]);
    expect(plays[3]).toEqual(['2026-11-24', '0', '0', '4', '3']);
  });

  it('asks again for another period', async () => {
    const { fetch } = renderWithProviders(<FileInsightsPanel fileId={41} />, {
      user: creator,
      fetchImpl: () => json(200, shownFileInsights()),
    });
    await screen.findByRole('table', { name: 'Retention' });
    fireEvent.change(screen.getByLabelText('Period'), { target: { value: '365' } });
    fireEvent.click(screen.getByRole('tab', { name: 'By week' }));
    await waitFor(() =>
      expect(fetch.mock.calls.map(([u]) => String(u))).toContain(
        '/api/insights/files/41?period=365&bucket=week',
      ),
    );
  });

  it('keeps the period in the address: a link or a reload opens the same view', async () => {
    const { fetch } = renderWithProviders(<FileInsightsPanel fileId={41} />, {
      user: creator,
      at: '/file/00000000-0000-4000-8000-000000000041?period=90&bucket=week',
      fetchImpl: () => json(200, shownFileInsights()),
    });
    await screen.findByRole('table', { name: 'Retention' });
    expect(String(fetch.mock.calls[0][0])).toBe('/api/insights/files/41?period=90&bucket=week');
    expect(screen.getByLabelText('Period')).toHaveValue('90');
    expect(screen.getByRole('tab', { name: 'By week' })).toHaveAttribute('aria-selected', 'true');
  });

  it('says so when the insights cannot be loaded', async () => {
    renderWithProviders(<FileInsightsPanel fileId={41} />, {
      user: creator,
      fetchImpl: () => json(500, { error: 'Internal error.' }),
    });
    expect(await screen.findByText('The insights could not be loaded.')).toBeInTheDocument();
  });
});

describe('/insights', () => {
  it("shows the creator's catalogue: top files with their trend as a table and CSV", async () => {
    const { fetch } = renderWithProviders(<CreatorInsightsPage />, {
      user: creator,
      fetchImpl: () => json(200, catalogueInsights()),
    });
    await screen.findByRole('table', { name: 'Top files' });
    expect(String(fetch.mock.calls[0][0])).toBe('/api/insights/creators/9?period=28&bucket=day');
    expect(tableRows('Top files')).toEqual([
      ['File', 'Plays', 'Plays, previous 7 days', 'Change'],
      ['Deep, "calm" dive', '8', '4', '+100%'],
      ['Quiet', '4', '0', 'new'],
    ]);
    const { saved, restore } = captureDownloads();
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV: Top files' }));
    restore();
    expect(await saved[0].text).toBe(
      'File,Plays,"Plays, previous 7 days",Change\r\n"Deep, ""calm"" dive",8,4,+100%\r\nQuiet,4,0,new\r\n',
    );
  });

  it('withholds the audience of a catalogue below 5 listeners', async () => {
    renderWithProviders(<CreatorInsightsPage />, {
      user: creator,
      fetchImpl: () => json(200, catalogueInsights({ audience: { withheld: true, minListeners: 5 } })),
    });
    expect(await screen.findAllByText(WITHHELD_TEXT)).toHaveLength(2);
    expect(screen.queryByText('Unique listeners')).not.toBeInTheDocument();
  });

  it('asks a visitor to log in, without asking the server', () => {
    const { fetch } = renderWithProviders(<CreatorInsightsPage />, { user: null });
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('/insights/listening', () => {
  it('shows the calendar with its table, streaks, level and plans', async () => {
    renderWithProviders(<ListeningPage />, {
      user: creator,
      fetchImpl: () => json(200, listeningInsights()),
    });
    await screen.findByRole('table', { name: 'Minutes per day' });
    expect(tableRows('Minutes per day')).toEqual([
      ['Day', 'Minutes'],
      ['2026-11-26', '12'],
      ['2026-11-27', '45'],
      ['2026-11-28', '5'],
    ]);
    // The calendar holds every day of the year, shaded by minutes.
    expect(document.querySelectorAll('svg rect title')).toHaveLength(365);
    expect(screen.getByText('2026-11-27: 45 min')).toBeInTheDocument();
    expect(
      screen.getByText(
        '62 minutes on 3 of the last 365 days (29 Nov 2025 to 28 Nov 2026); the most, 45 minutes, on 27 Nov 2026.',
      ),
    ).toBeInTheDocument();
    expect(tableRows('Streak history')[1]).toEqual(['2026-11-26', '2026-11-28', '3']);
    expect(screen.getByRole('progressbar', { name: 'Level 2' })).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByRole('progressbar', { name: 'Seven days' })).toHaveAttribute(
      'aria-valuetext',
      '2 of 7 days done',
    );
    expect(tableRows('Most played files')[1]).toEqual(['Deep dive', '3', '1 h 2 min']);
  });

  it('shows the empty calendar text for a new listener', async () => {
    renderWithProviders(<ListeningPage />, {
      user: creator,
      fetchImpl: () =>
        json(
          200,
          listeningInsights({
            days: [],
            totalMinutes: 0,
            streakHistory: [],
            topFiles: [],
            trainedTriggers: [],
            plans: [],
          }),
        ),
    });
    expect(
      await screen.findByText('No listening in the last year yet. Play a file to start your calendar.'),
    ).toBeInTheDocument();
    expect(screen.getByText('No streaks yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('opts out of creators’ insights with PUT /api/user', async () => {
    let optedOut = false;
    const { fetch } = renderWithProviders(<ListeningPage />, {
      user: creator,
      fetchImpl: async (_input, init) => {
        if (init?.method !== 'PUT') return json(200, listeningInsights({ insightsOptOut: optedOut }));
        optedOut = true;
        return json(200, { user: { ...creator, insightsOptOut: true } });
      },
    });
    const toggle = await screen.findByRole('switch', { name: "Leave me out of creators' insights" });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(put?.[0]).toBe('/api/user');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ insightsOptOut: true });
  });
});

describe('/insights/site', () => {
  it('tells members the dashboard is for administrators, without asking the server', () => {
    const { fetch } = renderWithProviders(<SiteInsightsPage />, { user: creator });
    expect(screen.getByText('Only administrators can see the site dashboard.')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows administrators the site figures and their tables', async () => {
    renderWithProviders(<SiteInsightsPage />, { user: admin, fetchImpl: () => json(200, siteInsights()) });
    await screen.findByRole('table', { name: 'Daily active listeners' });
    expect(tableRows('Reports opened and closed')[1]).toEqual(['2026-11-22', '1', '0']);
    expect(screen.getByText('1.5 GB')).toBeInTheDocument();
    expect(screen.getByText('Files').nextSibling).toHaveTextContent('30');
    expect(screen.getByText('−50% vs previous 7 days')).toBeInTheDocument();
    expect(screen.getByText('Server errors since start').nextSibling).toHaveTextContent('2');
  });
});
