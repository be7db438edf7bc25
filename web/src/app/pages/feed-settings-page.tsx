import { FeedsSettingsPage } from '../../features/feeds/pages';
import { SettingsNav } from '../../features/settings';

/** /settings/feeds and /settings/feeds/root: the feed manager, under the settings tabs. */
export function FeedSettingsPage() {
  return <FeedsSettingsPage nav={<SettingsNav />} />;
}
