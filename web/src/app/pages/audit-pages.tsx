import { AggregateHistoryPage, AuditLogPage } from '../../features/audit/pages';
import { SettingsNav } from '../../features/settings';

/** settings/audit: the settings tabs above the audit log. */
export function AuditPage() {
  return (
    <div className="stack-lg">
      <SettingsNav />
      <AuditLogPage />
    </div>
  );
}

/** settings/audit/history: the settings tabs above one aggregate's history. */
export function AuditHistoryPage() {
  return (
    <div className="stack-lg">
      <SettingsNav />
      <AggregateHistoryPage />
    </div>
  );
}
