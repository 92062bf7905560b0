import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function CookiesPage() {
  usePageTitle('Cookie Policy');
  return (
    <Card>
      <h1>Cookie Policy</h1>
    </Card>
  );
}
