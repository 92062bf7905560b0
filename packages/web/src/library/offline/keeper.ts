/**
 * Keeping a playlist or training plan offline: measure what it needs, store its
 * media and the API answers its page and the player read in the offline cache, list it in the
 * index, and remove it again. The service worker answers from that cache (build/service-worker.ts).
 * Every change runs under one Web Lock, so a failed or cancelled keep can clear what no kept item
 * needs without touching a keep in another tab: nothing is ever left half kept.
 */

import type { AudioFile } from '@mesmer/shared/api/files';
import type { ListPlaylistsResponse } from '@mesmer/shared/api/playlists';
import type { OneSeriesResponse } from '@mesmer/shared/api/series';
import { routePath } from '@mesmer/shared/routes/address';
import { filesRoutes } from '@mesmer/shared/routes/files';
import { playlistsRoutes } from '@mesmer/shared/routes/playlists';
import { seriesRoutes } from '@mesmer/shared/routes/series';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import {
  findKept,
  type KeptItem,
  keysInUse,
  type OfflineIndex,
  type OfflineTarget,
  readIndex,
  withItem,
  withoutItem,
  writeIndex,
} from './offline-index.ts';
import { OFFLINE_CACHE, offlineKey } from './offline-keys.ts';

/** A media file of a kept item: its cache key (path), a URL that fetches it now, its size. */
export interface KeptMedia {
  key: string;
  url: string;
  bytes: number;
  /** Already in the offline cache (another kept item has it, or an earlier keep). */
  stored: boolean;
}

/** What keeping a target takes, measured before asking the listener. */
export interface KeepPlan {
  target: OfflineTarget;
  media: KeptMedia[];
  /** URLs of the API answers to keep (the page's answer first). */
  api: string[];
  /** Bytes of all its media, and of the part still to download. */
  totalBytes: number;
  downloadBytes: number;
  /** Playable files, and files left out because they are locked for this listener. */
  files: number;
  lockedFiles: number;
  /** Free space the browser reports for this site, when it does. */
  freeBytes: number | null;
}

export type KeepFailure = 'quota' | 'network' | 'refused' | 'cancelled';

export class KeepError extends Error {
  constructor(
    readonly reason: KeepFailure,
    message: string,
  ) {
    super(message);
  }
}

/** Whether this browser can keep files and play them offline: Cache Storage and a service worker in charge. */
export function canKeepOffline(): boolean {
  return typeof caches !== 'undefined' && !!globalThis.navigator?.serviceWorker?.controller;
}

export const targetId = (target: Pick<OfflineTarget, 'kind' | 'uuid'>) => `${target.kind}:${target.uuid}`;

/** The API answer the target's page reads, as the page asks for it. */
function pageAnswerUrl(target: OfflineTarget): string {
  const uuid = encodeURIComponent(target.uuid);
  return target.kind === 'playlist'
    ? `/api${routePath(playlistsRoutes.list)}?uuid=${uuid}`
    : `/api${routePath(seriesRoutes.get)}?uuid=${uuid}&includePlaylists=true`;
}

/** The files of the page's answer; like every call's answer (lib/api-client.ts), it is read as declared. */
function filesOfAnswer(target: OfflineTarget, body: unknown): AudioFile[] {
  if (target.kind === 'playlist') {
    const found = (body as ListPlaylistsResponse).playlists[0];
    if (!found) throw new KeepError('refused', 'This playlist is no longer available.');
    return found.files;
  }
  return (body as OneSeriesResponse).series.playlists.flatMap((day) => day.files);
}

const keyOf = (url: string) => offlineKey(new URL(url, location.origin)) ?? url;

/** The media files (audio, haptic cues, scripts) of `files`, once each; locked files have none. */
export function mediaOf(files: readonly AudioFile[]): { key: string; url: string }[] {
  const byKey = new Map<string, string>();
  for (const file of files) {
    for (const url of [file.audioURL, file.hapticsURL, file.scriptURL]) {
      if (url && !byKey.has(keyOf(url))) byKey.set(keyOf(url), url);
    }
  }
  return [...byKey].map(([key, url]) => ({ key, url }));
}

function exclusive<T>(work: () => Promise<T>): Promise<T> {
  const locks = globalThis.navigator?.locks;
  return locks ? (locks.request('mesmer-offline', work) as Promise<T>) : work();
}

/** The service worker reads the cache's keys again, so it answers what was just kept or stops. */
function tellServiceWorker() {
  void globalThis.navigator?.serviceWorker?.ready
    .then((registration) => registration.active?.postMessage('mesmer-offline-changed'))
    .catch(() => undefined);
}

/** Deletes every cached key no kept item needs (leftovers of a failed, cancelled or replaced keep). */
async function sweep(cache: Cache, index: OfflineIndex) {
  const inUse = keysInUse(index);
  for (const request of await cache.keys()) {
    if (!inUse.has(keyOf(request.url))) await cache.delete(request);
  }
}

async function storedBytes(cache: Cache, key: string): Promise<number | null> {
  const hit = await cache.match(key);
  if (!hit) return null;
  const length = Number(hit.headers.get('Content-Length'));
  return Number.isFinite(length) && length > 0 ? length : (await hit.blob()).size;
}

function failure(err: unknown, signal?: AbortSignal): KeepError {
  if (signal?.aborted) return new KeepError('cancelled', 'Cancelled.');
  if (err instanceof KeepError) return err;
  if (err instanceof DOMException && err.name === 'QuotaExceededError') {
    return new KeepError('quota', 'There is not enough storage space on this device.');
  }
  return new KeepError('network', 'The download stopped. Check your connection and try again.');
}

async function fetchOk(url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, { credentials: 'same-origin', ...init });
  if (!res.ok) {
    throw new KeepError(
      'refused',
      `A file could not be downloaded (${res.status}). Reload the page and try again.`,
    );
  }
  return res;
}

/** Reads the target's answer and sizes its files (HEAD requests) without storing anything. */
export async function measureKeep(target: OfflineTarget): Promise<KeepPlan> {
  try {
    const pageUrl = pageAnswerUrl(target);
    const files = filesOfAnswer(target, await (await fetchOk(pageUrl)).json());
    const cache = await caches.open(OFFLINE_CACHE);
    const media = await Promise.all(
      mediaOf(files).map(async ({ key, url }): Promise<KeptMedia> => {
        const stored = await storedBytes(cache, key);
        if (stored !== null) return { key, url, bytes: stored, stored: true };
        const head = await fetchOk(url, { method: 'HEAD' });
        return { key, url, bytes: Number(head.headers.get('Content-Length')) || 0, stored: false };
      }),
    );
    const playable = [...new Map(files.filter((f) => f.audioURL).map((f) => [f.id, f])).values()];
    const waveforms = playable.map((f) => `/api${routePath(filesRoutes.waveform)}?id=${f.id}`);
    const estimate = await globalThis.navigator?.storage?.estimate?.().catch(() => null);
    return {
      target,
      media,
      api: [pageUrl, ...waveforms],
      files: playable.length,
      totalBytes: media.reduce((sum, m) => sum + m.bytes, 0),
      downloadBytes: media.filter((m) => !m.stored).reduce((sum, m) => sum + m.bytes, 0),
      lockedFiles: new Set(files.filter((f) => !f.audioURL).map((f) => f.id)).size,
      freeBytes:
        estimate?.quota !== undefined && estimate.usage !== undefined
          ? Math.max(0, estimate.quota - estimate.usage)
          : null,
    };
  } catch (err) {
    throw failure(err);
  }
}

/**
 * The URL a kept copy is downloaded from: audio with `offline=1`, so the server records the whole
 * copy and later credits the plays made from it offline (POST /api/session/offline).
 */
export function downloadUrl(media: Pick<KeptMedia, 'key' | 'url'>): string {
  if (!media.key.startsWith('/media/audio/')) return media.url;
  return `${media.url}${media.url.includes('?') ? '&' : '?'}offline=1`;
}

/** Stores one media file, counting its bytes as they arrive. */
async function storeMedia(cache: Cache, media: KeptMedia, signal: AbortSignal, onBytes: (n: number) => void) {
  const res = await fetchOk(downloadUrl(media), { signal });
  if (!res.body) throw new KeepError('network', 'The download stopped. Check your connection and try again.');
  const counted = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        onBytes(chunk.byteLength);
        controller.enqueue(chunk);
      },
    }),
  );
  const headers = new Headers({
    'Content-Type': res.headers.get('Content-Type') ?? 'application/octet-stream',
  });
  const length = res.headers.get('Content-Length');
  if (length) headers.set('Content-Length', length);
  await cache.put(media.key, new Response(counted, { headers }));
}

/**
 * Downloads what `plan` still needs and lists the target as kept; `onProgress` gets the bytes
 * downloaded so far. On failure or cancel everything this keep stored goes again and it throws
 * a KeepError; an earlier keep of the same target stays as it was.
 */
export function keep(
  plan: KeepPlan,
  signal: AbortSignal,
  onProgress: (done: number) => void,
): Promise<KeptItem> {
  return exclusive(async () => {
    const cache = await caches.open(OFFLINE_CACHE);
    try {
      void globalThis.navigator?.storage?.persist?.().catch(() => false);
      let done = 0;
      const media: KeptMedia[] = [];
      for (const m of plan.media) {
        signal.throwIfAborted();
        // Another keep may have stored it since the plan was made.
        const stored = await storedBytes(cache, m.key);
        if (stored !== null) {
          media.push({ ...m, bytes: stored, stored: true });
          continue;
        }
        let bytes = 0;
        await storeMedia(cache, m, signal, (n) => {
          bytes += n;
          done += n;
          onProgress(done);
        });
        media.push({ ...m, bytes, stored: true });
      }
      const api: string[] = [];
      for (const [i, url] of plan.api.entries()) {
        signal.throwIfAborted();
        const res = await fetch(url, { credentials: 'same-origin', signal });
        // The page's answer is needed; a file's waveform only helps (loudness), so a missing one is skipped.
        if (!res.ok) {
          if (i === 0)
            throw new KeepError('refused', `The ${plan.target.kind} could not be read (${res.status}).`);
          continue;
        }
        await cache.put(keyOf(url), res);
        api.push(keyOf(url));
      }
      signal.throwIfAborted();
      const item: KeptItem = {
        ...plan.target,
        media: media.map((m) => m.key),
        api,
        bytes: media.reduce((sum, m) => sum + m.bytes, 0),
        keptAt: new Date().toISOString(),
      };
      const index = withItem(readIndex(localStorage), item);
      writeIndex(localStorage, index);
      // Files the earlier keep of this target had and this one dropped.
      await sweep(cache, index);
      offlineStore.setState({ index });
      return item;
    } catch (err) {
      const index = readIndex(localStorage);
      await sweep(cache, index).catch(() => undefined);
      offlineStore.setState({ index });
      throw failure(err, signal);
    } finally {
      tellServiceWorker();
    }
  });
}

/** Stops keeping the target offline: its files go, unless another kept item has them too. */
export function removeKept(target: Pick<OfflineTarget, 'kind' | 'uuid'>): Promise<void> {
  return exclusive(async () => {
    const index = withoutItem(readIndex(localStorage), target);
    writeIndex(localStorage, index);
    try {
      await sweep(await caches.open(OFFLINE_CACHE), index);
    } finally {
      // Shown as removed once its files are gone, not while they are still being deleted.
      offlineStore.setState({ index });
      tellServiceWorker();
    }
  });
}

/** A download under way: bytes done of the total, and how to stop it. */
export interface Download {
  done: number;
  total: number;
  cancel: () => void;
}

interface OfflineState {
  index: OfflineIndex;
  /** By targetId. */
  downloads: Record<string, Download>;
  /** The last keep that failed, by targetId, until dismissed or tried again. */
  failures: Record<string, KeepError>;
}

/** Kept in one store so a download goes on, and shows, when the listener leaves the page and comes back. */
export const offlineStore = createStore<OfflineState>(() => ({
  index: { items: [] },
  downloads: {},
  failures: {},
}));

function patch<K extends 'downloads' | 'failures'>(
  field: K,
  id: string,
  value: OfflineState[K][string] | null,
) {
  offlineStore.setState((s) => {
    const next = { ...s[field] };
    if (value) next[id] = value;
    else delete next[id];
    return { [field]: next } as Pick<OfflineState, K>;
  });
}

/** Reads the index again (first use, or another tab changed it). */
export function refreshIndex() {
  offlineStore.setState({ index: readIndex(localStorage) });
}

/** Starts keeping `plan` offline in the background; progress, failure and the result show in the store. */
export function startKeep(plan: KeepPlan): Promise<KeptItem | null> {
  const id = targetId(plan.target);
  const abort = new AbortController();
  patch('failures', id, null);
  patch('downloads', id, { done: 0, total: plan.downloadBytes, cancel: () => abort.abort() });
  // A progress step per half percent is plenty for a bar.
  const step = Math.max(1, Math.floor(plan.downloadBytes / 200));
  let shown = 0;
  return keep(plan, abort.signal, (done) => {
    if (done - shown < step && done < plan.downloadBytes) return;
    shown = done;
    const current = offlineStore.getState().downloads[id];
    if (current) patch('downloads', id, { ...current, done: Math.min(done, current.total) });
  })
    .then((item) => item)
    .catch((err: KeepError) => {
      if (err.reason !== 'cancelled') patch('failures', id, err);
      return null;
    })
    .finally(() => patch('downloads', id, null));
}

export const dismissFailure = (target: OfflineTarget) => patch('failures', targetId(target), null);

export function useOfflineState(target: OfflineTarget) {
  const id = targetId(target);
  const kept = useStore(offlineStore, (s) => findKept(s.index, target));
  const download = useStore(offlineStore, (s) => s.downloads[id]);
  const failed = useStore(offlineStore, (s) => s.failures[id]);
  return { kept, download, failed };
}
