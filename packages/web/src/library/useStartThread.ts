import { messagesRoutes } from '@mesmer/shared/routes/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { messageKeys } from '../api/messages.ts';
import { call } from '../lib/api-client.ts';
import { toast } from '../ui/index.ts';

/**
 * The profile's Message button: starts (or reuses) the two-person thread with `userId` and opens
 * /messages?thread={id}; a failure toasts 'Failed to create thread.' with the server's reason.
 */
export function useStartThread() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) =>
      call(messagesRoutes.createThread, { body: { name: null, userIds: String(userId) } }),
    onSuccess: ({ id }) => {
      queryClient.invalidateQueries({ queryKey: messageKeys.threads() });
      navigate(`/messages?thread=${id}`);
    },
    onError: (error) => toast('error', 'Failed to create thread.', error.message),
  });
}
