import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function MessagesPage() {
  usePageTitle('Messages');
  return (
    <Card>
      <h1>Messages</h1>
    </Card>
  );
}
