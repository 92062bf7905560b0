// Plain numbers, apart from the schemas that apply them (api/common.ts): the web's inputs read them
// without loading zod (decision 038).

/** The largest value a PostgreSQL integer column holds: every id, count and duration is stored as one. */
export const INT_MAX = 2_147_483_647;

/** Lengths of free text the API accepts; the web's inputs use the same numbers as maxLength. */
export const TEXT_LIMITS = {
  /** Search boxes and name filters. */
  search: 200,
  /** A username as typed: 20 characters by the rule, with room for stray spaces. */
  username: 64,
  /** An e-mail address; logging in takes a username or an e-mail address up to this. */
  email: 254,
  password: 200,
  playlistName: 100,
  triggerName: 60,
  /** Playlist and trigger descriptions as typed (a trigger's is then cut to 250). */
  description: 2000,
  biography: 5000,
  /** Opaque tokens: session, verification, reset and membership tokens. */
  token: 200,
} as const;
