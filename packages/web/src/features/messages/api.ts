import type { Message } from '@mesmer/shared/api/messages';

/** Messages by id, oldest first, each id once (later copies win: a removal replaces the text). */
export function mergeMessages(current: readonly Message[], incoming: readonly Message[]): Message[] {
  const byId = new Map<number, Message>();
  for (const m of current) byId.set(m.id, m);
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
