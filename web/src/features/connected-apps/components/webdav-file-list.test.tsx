import { render, screen, within } from '@testing-library/react';
import { FILES_SHOWN, WebdavFileList } from './webdav-file-list';

describe('the files a check found', () => {
  it('lists one file in the singular, with its size', () => {
    render(<WebdavFileList found={[{ name: 'Annual report 2025.pdf', size: 3 * 1024 * 1024 }]} />);
    expect(screen.getByRole('status')).toHaveTextContent('The folder has 1 file Needl will import.');
    const item = within(screen.getByRole('list', { name: 'Files in the folder' })).getByRole('listitem');
    expect(item).toHaveTextContent('Annual report 2025.pdf3 MB');
  });

  it('shows the first hundred of a large folder and says how many more there are', () => {
    const found = Array.from({ length: FILES_SHOWN + 1_234 }, (_, i) => ({ name: `file-${i}.txt`, size: i }));
    render(<WebdavFileList found={found} />);
    expect(screen.getByRole('status')).toHaveTextContent(`The folder has ${(FILES_SHOWN + 1_234).toLocaleString()} files`);
    expect(within(screen.getByRole('list')).getAllByRole('listitem')).toHaveLength(FILES_SHOWN);
    expect(screen.getByText(`And ${(1_234).toLocaleString()} more files.`)).toBeInTheDocument();
  });
});
