/** Which stored files are of a type the storage page lists. */
import { typeName } from '../components/storage-by-type';

const essence = (mime: string) => mime.split(';', 1)[0].trim().toLowerCase();

/**
 * Returns whether a file whose document says `fileMime` is of `type`, the mime type the storage
 * counts it under. The two can differ in detail (the document's is found from the bytes, the
 * storage's is what the upload declared), so parameters and case are ignored, and two types
 * with one name (Word's .doc and .docx) are one type.
 */
export function isOfType(fileMime: string | undefined, type: string): boolean {
  if (!fileMime) return false;
  const [a, b] = [essence(fileMime), essence(type)];
  if (a === b) return true;
  const name = typeName(a);
  return name !== a && name === typeName(b);
}
