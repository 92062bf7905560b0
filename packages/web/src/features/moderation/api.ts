import type { ModerationActionRequest } from '@mesmer/shared/api/moderation';
import { moderationRoutes } from '@mesmer/shared/routes/moderation';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { moderationKeys } from '../../api/moderation.ts';
import { call } from '../../lib/api-client.ts';

/** Closes a report with an action; the queue and the log are read again. */
export function useModerationAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reportId, ...body }: ModerationActionRequest & { reportId: number }) =>
      call(moderationRoutes.act, { params: { id: reportId }, body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: moderationKeys.all }),
  });
}
