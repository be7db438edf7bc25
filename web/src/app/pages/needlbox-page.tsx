import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { ListState } from '../../components/ui/list-state';
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
  return (
    <ListState query={sources} loadingLabel="Loading Needlbox" errorTitle="Needlbox could not be loaded">
      {(list) => {
        const listed = list.results.find((s) => s.key === source);
        if (!listed) return <ComingSoonPage />;
        if (listed.key === DRIVE_SOURCE) return drive;
        return (
          <div className="page-narrow">
            <DocumentList key={listed.key} source={listed.key} category="needlbox" />
          </div>
        );
      }}
    </ListState>
  );
}
