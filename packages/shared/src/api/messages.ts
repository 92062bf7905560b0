import { z } from 'zod';
import { TEXT_LIMITS } from '../domain/limits.ts';
import {
  MESSAGE_MAX_LENGTH,
  MESSAGES_PAGE_SIZE,
  MESSAGES_PAGE_SIZE_MAX,
  THREAD_MAX_MEMBERS,
  THREADS_PAGE_SIZE,
  THREADS_PAGE_SIZE_MAX,
} from '../domain/messaging.ts';
import { messagesRoutes } from '../routes/messages.ts';
import { errorResponse, id, idList, int, pagingQuery, queryBool, queryId, queryInt, text } from './common.ts';
import { defineRoute, noContent } from './contract.ts';

export { SOCKET_EVENTS } from '../routes/messages.ts';

/** A thread member as shown in the list and the chat header. */
export const threadUser = z.object({
  id: z.number().int(),
  username: z.string(),
  imageURL: z.string().nullable(),
});
export type ThreadUser = z.infer<typeof threadUser>;

/** A thread as the caller (a member) sees it. */
export const thread = z.object({
  id: z.number().int(),
  /** A group's name; a two-person thread shows the other person's username. */
  name: z.string(),
  /** Every member but the caller. */
  users: z.array(threadUser),
  /** Every member's id, the caller's included. */
  userIds: z.array(z.number().int()),
  /** The newest message id the caller has read (0 = none). */
  lastRead: z.number().int(),
  /**
   * The newest message id in the thread that the caller may see (0 = none; decision 041). Unread when
   * greater than lastRead (domain isThreadUnread).
   */
  mostRecentMessage: z.number().int(),
  /** Made with a name (any size); false = a two-person thread. */
  isGroup: z.boolean(),
});
export type Thread = z.infer<typeof thread>;

/** One message. A removed one (moderation) has message '' and removed true. */
export const message = z.object({
  id: z.number().int(),
  senderId: z.number().int().nullable(),
  threadId: z.number().int(),
  message: z.string(),
  removed: z.boolean(),
  /** ISO 8601. */
  createdAt: z.string(),
  /** Null once the sender's account is deleted. */
  sender: threadUser.nullable(),
});
export type Message = z.infer<typeof message>;

/** What GET /api/messages and the socket's bulk_messages answer: oldest first; startingId = the oldest id listed (0 if none). */
export const messagePage = z.object({ messages: z.array(message), startingId: z.number().int() });
export type MessagePage = z.infer<typeof messagePage>;

export const threadsQuery = z.object({
  ...pagingQuery(THREADS_PAGE_SIZE, THREADS_PAGE_SIZE_MAX),
  /** true: only two-person threads; false: only groups; absent: all. */
  isPrivate: queryBool.optional(),
});
export const threadsResponse = z.object({ threads: z.array(thread), totalItems: z.number().int() });

export const threadQuery = z.object({ id: queryId.describe('The thread.') });

export const createThreadRequest = z.object({
  /** Null (or empty) with one other person = the two-person thread (reused when it exists). */
  name: text(TEXT_LIMITS.playlistName).trim().nullable().default(null),
  /** The other people, comma-joined ("2,3"); the creator is added. */
  userIds: idList(THREAD_MAX_MEMBERS).describe(
    `Comma-joined user ids; at most ${THREAD_MAX_MEMBERS} people in all.`,
  ),
});
export type CreateThreadRequest = z.input<typeof createThreadRequest>;

export const sendMessageRequest = z.object({
  threadId: id,
  message: text(MESSAGE_MAX_LENGTH)
    .trim()
    .min(1, 'Message is required.')
    .describe(`At most ${MESSAGE_MAX_LENGTH} characters after trimming.`),
});
export type SendMessageRequest = z.input<typeof sendMessageRequest>;

export const historyQuery = z.object({
  threadId: queryId,
  /** Only messages older than this id; absent = the newest page. */
  before: queryId.optional(),
  pageSize: queryInt(1, MESSAGES_PAGE_SIZE_MAX).default(MESSAGES_PAGE_SIZE),
});

export const markReadRequest = z.object({ threadId: id, messageId: int(0) });

export const messagesApi = {
  threads: defineRoute(messagesRoutes.threads, {
    tags: ['messages'],
    description:
      "The caller's threads, newest activity first; threads the caller hid (by blocking someone in them) are left out.",
    query: threadsQuery,
    responses: { 200: threadsResponse, 400: errorResponse, 401: errorResponse },
  }),
  thread: defineRoute(messagesRoutes.thread, {
    tags: ['messages'],
    description: 'One thread the caller is in. 404 "Thread not found." otherwise.',
    query: threadQuery,
    responses: { 200: thread, 400: errorResponse, 401: errorResponse, 404: errorResponse },
  }),
  createThread: defineRoute(messagesRoutes.createThread, {
    tags: ['messages'],
    description:
      'Starts a thread with the listed people. No name and one other person: the existing two-person thread is reused. ' +
      `At most ${THREAD_MAX_MEMBERS} people with the creator (400 on userIds); unknown users 400; ` +
      "403 'You cannot message this user.' when any of them blocked the caller. " +
      '20 new threads an hour per user (reopening one is not counted), then 429 with Retry-After.',
    body: createThreadRequest,
    responses: {
      200: z.object({ id: z.number().int() }),
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
      429: errorResponse,
    },
  }),
  send: defineRoute(messagesRoutes.send, {
    tags: ['messages'],
    description:
      'Posts a message to a thread the caller is in (404 otherwise) and pushes it to the thread room and members, ' +
      'except members who blocked the caller: it is never shown to them (decision 041). ' +
      "403 'You cannot message this user.' when the only other member blocked the caller, 'You cannot message " +
      "anyone in this thread.' when every other member did. " +
      '30 a minute per user, then 429 with Retry-After.',
    body: sendMessageRequest,
    responses: {
      200: z.object({ success: z.literal(true), id: z.number().int() }),
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
      404: errorResponse,
      429: errorResponse,
    },
  }),
  history: defineRoute(messagesRoutes.history, {
    tags: ['messages'],
    description:
      "A page of a thread's messages, oldest first, older than `before` when given; without those withheld from " +
      'the caller or sent by someone the caller blocks (decision 041). 404 unless a member.',
    query: historyQuery,
    responses: { 200: messagePage, 400: errorResponse, 401: errorResponse, 404: errorResponse },
  }),
  markRead: defineRoute(messagesRoutes.markRead, {
    tags: ['messages'],
    description:
      "Sets the caller's lastRead in the thread to messageId (never backwards). 404 unless a member.",
    body: markReadRequest,
    responses: { 204: noContent, 400: errorResponse, 401: errorResponse, 404: errorResponse },
  }),
};

export const threadUpdatedEvent = z.object({
  threadId: z.number().int(),
  mostRecentMessage: z.number().int(),
});
export type ThreadUpdatedEvent = z.infer<typeof threadUpdatedEvent>;
