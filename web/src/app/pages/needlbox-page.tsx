import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { Spinner } from '../../components/ui/spinner';
import { DocumentList } from '../../features/documents';
import { DRIVE_SOURCE } from '../../features/uploads';
import { libraryQueries } from '../../lib/queries/library-queries';
import { ComingSoonPage } from './coming-soon-page';

/**
 * /needlbox/{source} and /needlbox/{source}/{subCategory}: a source of the personal store, as
 * `GET /source/needlbox` lists them. The drive opens as the drive page (`drive`); another
 * listed source shows its documents; anything else is not here yet.
 */
export function NeedlboxSourcePage({ drive }: { drive: ReactNode }) {
  const { source = '' } = useParams();
  const sources = useQuery(libraryQueries.needlbox());
  if (sources.isPending) return <Spinner label="Loading Needlbox" />;
  if (sources.isError) {
    return (
      <EmptyState title="Needlbox could not be loaded">
        <button type="button" className="button" onClick={() => void sources.refetch()}>
          Try again
        </button>
      </EmptyState>
    );
  }
  const listed = sources.data.results.find((s) => s.key === source);
  if (!listed) return <ComingSoonPage />;
  if (listed.key === DRIVE_SOURCE) return drive;
  return (
    <div className="page-narrow">
      <DocumentList key={listed.key} source={listed.key} category="needlbox" />
    </div>
  );
}
