import { PlaceholderPage } from '../../components/placeholder-page.tsx';

export default function AuditDashboardPage() {
  return (
    <PlaceholderPage
      title="Audit Dashboard"
      coming="Here auditors will review inspections, their approvals and the audit trail, read-only."
    />
  );
}
