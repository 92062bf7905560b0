import type { Message, Thread, ThreadUser } from '@mesmer/shared/api/messages';
import type { MemberRow, MessageRow, ThreadRow } from './messages.repo.ts';

const toThreadUser = (m: MemberRow): ThreadUser => ({ id: m.id, username: m.username, imageURL: m.imageUrl });

/** A thread as `viewerId` sees it: the others as `users`, a two-person thread named after the other person. */
export function toThread(row: ThreadRow, members: MemberRow[], viewerId: number): Thread {
  const others = members.filter((m) => m.id !== viewerId);
  return {
    id: row.id,
    name: row.name ?? others[0]?.username ?? 'Deleted user',
    users: others.map(toThreadUser),
    userIds: members.map((m) => m.id),
    lastRead: row.lastRead,
    mostRecentMessage: row.mostRecentMessage,
    isGroup: row.name !== null,
  };
}

/** A message; a removed one keeps its place but not its text. */
export function toMessage(row: MessageRow): Message {
  const removed = row.removedAt !== null;
  return {
    id: row.id,
    senderId: row.senderId,
    threadId: row.threadId,
    message: removed ? '' : row.message,
    removed,
    createdAt: row.createdAt.toISOString(),
    sender:
      row.senderId !== null && row.senderUsername !== null
        ? { id: row.senderId, username: row.senderUsername, imageURL: row.senderImageUrl }
        : null,
  };
}
