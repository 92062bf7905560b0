import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function VerifyPage() {
  usePageTitle('Verify');
  return (
    <Card>
      <h1>Verify</h1>
    </Card>
  );
}
