import { MessageCircle } from 'lucide-react';
import { ReportButton } from '../../library/ReportButton.tsx';
import { useStartThread } from '../../library/useStartThread.ts';
import { FriendButton } from './FriendButton.tsx';
import styles from './ProfileEditor.module.css';

/** What a signed-in viewer may do on someone else's profile: message them, befriend them, report them. */
export function ProfileActions({ userId }: { userId: number }) {
  const startThread = useStartThread();
  return (
    <div className={styles.actions}>
      <button
        type="button"
        className="btn btn-ghost"
        disabled={startThread.isPending}
        onClick={() => startThread.mutate(userId)}
      >
        <MessageCircle size={18} aria-hidden /> Message
      </button>
      <FriendButton userId={userId} />
      <ReportButton subjectType="user" subjectId={userId} />
    </div>
  );
}
