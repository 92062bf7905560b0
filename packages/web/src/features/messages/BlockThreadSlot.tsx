import type { Thread } from '@mesmer/shared/api/messages';

/**
 * Where the chat header's Block action goes: the moderation feature's block dialog for this thread
 * (its other people). Until that feature exports it, the slot shows nothing.
 */
export function BlockThreadSlot(_props: { thread: Thread }) {
  return null;
}
