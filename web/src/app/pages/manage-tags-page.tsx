import { SettingsNav } from '../../features/settings';
import { TagsManager } from '../../features/tags/pages';

/** settings/manage-tags: the settings tabs above the tags manager. */
export function ManageTagsPage() {
  return (
    <div className="page-narrow stack-lg">
      <SettingsNav />
      <TagsManager />
    </div>
  );
}
