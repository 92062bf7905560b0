import { z } from 'zod';
import { defineRoute } from './contract.ts';

export const healthResponse = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
});
export type HealthResponse = z.infer<typeof healthResponse>;

export const healthApi = {
  check: defineRoute({
    method: 'GET',
    path: '/health',
    tags: ['health'],
    responses: { 200: healthResponse },
  }),
};
