import { render, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { App } from './app.tsx';

it('renders the brand', () => {
  render(<App />);
  expect(screen.getByRole('heading', { name: 'Glimpse' })).toBeInTheDocument();
});
