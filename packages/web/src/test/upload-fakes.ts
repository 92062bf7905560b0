/**
 * Test fakes for the upload dialog: an XMLHttpRequest that answers POST /api/files/upload through
 * a handler (each answer checked against the route contract), and the other calls the dialog makes.
 */
import type { UploadOptions } from '@mesmer/shared/api/files';
import { uploadChunkFields } from '@mesmer/shared/api/uploads';
import { onTestFinished, vi } from 'vitest';
import { contractProblem } from './api-contract.ts';

export interface SentChunk {
  keys: string[];
  fields: ReturnType<typeof uploadChunkFields.parse>;
  hasChunk: boolean;
}
type Answer = { status: number; body: unknown } | 'network';

/** Installs the fake XMLHttpRequest; `handler` answers each upload call (it may wait). */
export function fakeUploadXhr(handler: (call: SentChunk) => Answer | Promise<Answer>) {
  const sent: SentChunk[] = [];
  const problems: string[] = [];
  onTestFinished(() => {
    if (problems.length > 0)
      throw new Error(`Faked upload answers break the contract:\n${problems.join('\n')}`);
  });
  class FakeXhr {
    upload: { onprogress: ((e: { loaded: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    status = 0;
    responseText = '';
    private method = '';
    private url = '';
    private aborted = false;
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    abort() {
      this.aborted = true;
      this.onabort?.();
    }
    async send(form: FormData) {
      const keys = [...form.keys()];
      const fields = uploadChunkFields.parse(
        Object.fromEntries([...form.entries()].filter(([k]) => k !== 'chunk')),
      );
      const call = { keys, fields, hasChunk: keys.includes('chunk') };
      sent.push(call);
      if (call.hasChunk) this.upload.onprogress?.({ loaded: Math.floor((fields.chunkSize ?? 0) / 2) });
      const answer = await handler(call);
      if (this.aborted) return;
      if (answer === 'network') return this.onerror?.();
      const problem = contractProblem(this.method, this.url, answer.status, answer.body);
      if (problem) problems.push(problem);
      this.status = answer.status;
      this.responseText = JSON.stringify(answer.body);
      this.onload?.();
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

export const accepted = (call: SentChunk): Answer => ({
  status: 200,
  body: { data: { uuid: call.fields.uuid } },
});

export function uploadOptions(overrides: Partial<UploadOptions> = {}): UploadOptions {
  return {
    fileTypes: [1, 2, 3, 4, 5, 6, 7, 8, 9],
    privateOnly: false,
    canSetTrackNumber: false,
    tiers: [],
    ...overrides,
  };
}
