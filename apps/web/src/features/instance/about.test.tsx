import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { isSafeLink, renderMarkdown } from '@/components/ui/markdown.tsx';
import { fakeApi, renderApp } from '@/test/render.tsx';

function serve(about: string, name = 'Film Club') {
  fakeApi((url) => {
    if (url.pathname === '/api/v1/users/me') return { status: 401, message: 'Please login' };
    if (url.pathname === '/api/v1/instance/about') return { data: { name, description: 'Short films, made together', about } };
    if (url.pathname === '/api/v1/config') return { data: { instance: { name, description: '', registrationMode: 'open', maxVideoMinutes: 60 } } };
    return undefined;
  });
}

describe('/about', () => {
  it('renders the markdown safely: no raw HTML, no script links, safe links marked nofollow', async () => {
    serve(
      [
        '# House rules',
        '',
        'Be **kind**. <script>alert(1)</script> <img src=x onerror=alert(2)>',
        '',
        '[home](https://film.example) [bad](javascript:alert(3)) [data](data:text/html;base64,PHNjcmlwdD4=) [sneaky](JaVa\tScRiPt:alert(4))',
      ].join('\n'),
    );
    const { container } = renderApp('/about');
    expect(await screen.findByRole('heading', { level: 1, name: 'About Film Club' })).toBeInTheDocument();
    expect(screen.getByText('Short films, made together')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'House rules' })).toBeInTheDocument();
    expect(container.querySelector('script, img[onerror], [onerror]')).toBeNull();
    expect(screen.getByText(/<script>alert\(1\)<\/script>/)).toBeInTheDocument();
    const links = within(screen.getByRole('article')).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['home']);
    expect(links[0]).toHaveAttribute('href', 'https://film.example');
    expect(links[0]).toHaveAttribute('rel', 'nofollow noopener noreferrer');
  });

  it('shows a clear empty state when the admins wrote nothing', async () => {
    serve('  ');
    renderApp('/about');
    expect(await screen.findByRole('heading', { name: 'Nothing here yet' })).toBeInTheDocument();
  });

  it('is linked from the side menu, and the top bar shows the instance name', async () => {
    serve('', 'Film Club');
    renderApp('/help');
    const menu = within(await screen.findByRole('navigation', { name: 'Main menu' }));
    expect(menu.getByRole('link', { name: 'About' })).toHaveAttribute('href', '/about');
    expect(await screen.findByText('Film Club')).toBeInTheDocument();
  });
});

describe('the link rule', () => {
  it.each(['https://x.io', 'http://x.io', 'mailto:a@x.io', '/videos', '#top', 'page'])('allows %s', (url) => expect(isSafeLink(url)).toBe(true));
  it.each(['javascript:alert(1)', ' JAVASCRIPT:x', 'java\nscript:x', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd'])('refuses %j', (url) =>
    expect(isSafeLink(url)).toBe(false),
  );
  it('escapes raw HTML instead of passing it through', () => {
    expect(renderMarkdown('<iframe src="x"></iframe>')).toBe('<p>&lt;iframe src=&quot;x&quot;&gt;&lt;/iframe&gt;</p>\n');
  });
});
