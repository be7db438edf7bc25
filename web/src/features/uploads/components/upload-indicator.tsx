import { Link } from 'react-router';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { useUploads } from '../hooks/use-uploads';
import { uploadActivity } from '../upload-state';

const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;

/**
 * A small summary in the shell while files are on their way ("Uploading 2 files…", then
 * "Processing 1 file…"), linking back to the drive, where each file's status is. The count is
 * announced politely; the running percentage is a progress bar outside the live region, so
 * screen readers are not told every step.
 */
export function UploadIndicator({ to = '/apps/needldrive' }: { to?: string }) {
  const activity = uploadActivity(useUploads().items);
  if (activity.uploading === 0 && activity.processing === 0) return null;
  const text =
    activity.uploading > 0 ? `Uploading ${files(activity.uploading)}…` : `Processing ${files(activity.processing)}…`;
  return (
    <div className="upload-indicator" data-testid="upload-indicator">
      <span className="spinner spinner-small" aria-hidden="true" />
      <span role="status">
        <Link to={to}>{text}</Link>
      </span>
      {activity.uploading > 0 && <ProgressBar value={activity.progress} label="Upload progress" />}
    </div>
  );
}
