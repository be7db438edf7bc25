import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { ImageViewer } from '../../components/ui/image-viewer';
import { Spinner } from '../../components/ui/spinner';
import { api } from '../../lib/api';
import type { FileDownload } from '../../lib/api-client';
import { documentAtUrl, sameOriginUrl } from '../../lib/app-paths';
import { documentKeys } from '../../lib/queries/document-keys';
import { useLeaveFullPage } from '../shell/full-page-bar';

/**
 * The image types shown: raster images only. An SVG (or anything else) can carry script, and an
 * image shown from memory has the app's origin, so it is never shown, whatever the server says.
 */
export const SHOWN_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
]);

/** What /image may fetch: a document file of the server's, or a file the app itself serves. */
type ImageSource = { kind: 'document'; path: string; deeplink: string; source: string } | { kind: 'app'; url: string };

/**
 * Returns where the image at `src` may be fetched from, or null when it may not be: another
 * origin, `data:` or `blob:`, or a server address that is no document file (fetching it would
 * make a call with the user's session for nothing to show).
 */
export function imageSource(src: string | null): ImageSource | null {
  const url = sameOriginUrl(src);
  if (!url) return null;
  if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
    const doc = documentAtUrl(url);
    if (!doc || !url.pathname.endsWith('/file')) return null;
    const params = new URLSearchParams({ deeplink: doc.deeplink });
    if (doc.public_access_key) params.set('public_access_key', doc.public_access_key);
    return { kind: 'document', path: `/doc/${encodeURIComponent(doc.source)}/file?${params}`, deeplink: doc.deeplink, source: doc.source };
  }
  return { kind: 'app', url: url.href };
}

/** Fetches the image: a document file with the session (as the preview does), an app file plainly. */
async function fetchImage(source: ImageSource, signal: AbortSignal): Promise<FileDownload> {
  if (source.kind === 'document') return api.getFile(source.path, { signal });
  const response = await fetch(source.url, { credentials: 'same-origin', signal });
  if (!response.ok) throw new Error(`the image answered ${response.status}`);
  return { blob: await response.blob(), fileName: null };
}

/** Returns the type of `blob` if it is one the page shows, else null. */
const shownType = (blob: Blob | undefined): string | null => {
  const type = blob?.type.split(';')[0].trim().toLowerCase() ?? '';
  return SHOWN_IMAGE_TYPES.has(type) ? type : null;
};

/** Returns an address for `blob` while it is shown (only of a type the page shows). */
function useImageUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const type = shownType(blob);
    if (!blob || !type) return;
    // Typed again from the checked type, so the address never serves anything else.
    const address = URL.createObjectURL(new Blob([blob], { type }));
    setUrl(address);
    return () => {
      URL.revokeObjectURL(address);
      setUrl(null);
    };
  }, [blob]);
  return url;
}

/** Returns the last segment of a path, as the image's name. */
function nameOf(path: string): string | null {
  const last = path.split('/').pop();
  if (!last) return null;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * /image?src=…: one image, full page, zoomable, with Close (and Escape) leading back. Only an
 * image of the app's own origin is shown (`imageSource`), fetched and checked to be a raster
 * image, then shown from memory; anything else is refused without being fetched.
 */
export function ImagePage() {
  const [params] = useSearchParams();
  const source = imageSource(params.get('src'));
  const leave = useLeaveFullPage();
  const file = useQuery({
    queryKey: source?.kind === 'document' ? documentKeys.file(source.deeplink, source.source) : ['app-file', source?.url ?? null],
    queryFn: ({ signal }) => fetchImage(source as ImageSource, signal),
    enabled: Boolean(source),
    meta: { toast: false },
  });
  const url = useImageUrl(file.data?.blob);

  if (!source) return <Refused title="This image cannot be shown here" />;
  if (file.isPending) return <Spinner label="Loading the image" />;
  if (file.isError) return <Refused title="This image could not be loaded" />;
  if (!shownType(file.data.blob)) return <Refused title="This file is not an image Needl can show" />;
  if (!url) return <Spinner label="Loading the image" />;
  const name = file.data.fileName ?? (source.kind === 'app' ? nameOf(new URL(source.url).pathname) : null) ?? 'Image';
  return <ImageViewer src={url} alt={name} onClose={leave} />;
}

function Refused({ title }: { title: string }) {
  return (
    <EmptyState title={title}>
      <p>Needl shows images of its own documents and files only.</p>
      <p>
        <Link to="/home">Go to Needl</Link>
      </p>
    </EmptyState>
  );
}
