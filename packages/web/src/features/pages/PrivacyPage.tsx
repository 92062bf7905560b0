import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function PrivacyPage() {
  usePageTitle('Privacy Policy');
  return (
    <Card>
      <h1>Privacy Policy</h1>
    </Card>
  );
}
