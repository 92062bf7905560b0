/** What other modules may use of messaging besides its service: the hub that ends users' sockets. */
export type { MessagesHub } from './messages.hub.ts';
