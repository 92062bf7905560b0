import { z } from 'zod';
import { tagsRoutes } from '../routes/tags.ts';
import { userRef } from './common.ts';
import { defineRoute } from './contract.ts';

export const fileType = z.object({ id: z.number().int(), name: z.string() });
export type FileType = z.infer<typeof fileType>;
export const tag = z.object({ id: z.number().int(), name: z.string() });
export type Tag = z.infer<typeof tag>;

/** GET /api/tags */
export const tagsResponse = z.object({ fileTypes: z.array(fileType), tags: z.array(tag) });
export type TagsResponse = z.infer<typeof tagsResponse>;

/** GET /api/creators: every user who has authored a public file. */
export const creatorsResponse = z.object({ creators: z.array(userRef) });
export type CreatorsResponse = z.infer<typeof creatorsResponse>;

export const tagsApi = {
  list: defineRoute(tagsRoutes.list, {
    tags: ['files'],
    description: 'File types (fixed ids, 7 music and 9 AI music) and the tags files carry.',
    responses: { 200: tagsResponse },
  }),
  creators: defineRoute(tagsRoutes.creators, {
    tags: ['files'],
    description: 'Every user who authored a public file, by username.',
    responses: { 200: creatorsResponse },
  }),
};
