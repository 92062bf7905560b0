import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function UserPage() {
  usePageTitle('User');
  return (
    <Card>
      <h1>User</h1>
    </Card>
  );
}
