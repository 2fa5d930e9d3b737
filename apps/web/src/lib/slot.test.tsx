import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { createSlot, useSlot, type Slot } from './slot.ts';

describe('slot', () => {
  it('renders again the readers of a value, not the component that holds the slot', () => {
    const renders = { holder: 0, reader: 0 };
    function Reader({ slot }: { slot: Slot<string> }) {
      renders.reader++;
      return <p>{useSlot(slot) ?? 'nothing yet'}</p>;
    }
    let held: Slot<string> | undefined;
    function Holder() {
      renders.holder++;
      const [slot] = useState(() => createSlot<string>());
      held = slot;
      return <Reader slot={slot} />;
    }
    render(<Holder />);
    expect(screen.getByText('nothing yet')).toBeInTheDocument();
    act(() => held!.set('the video'));
    expect(screen.getByText('the video')).toBeInTheDocument();
    expect(held!.get()).toBe('the video');
    expect(renders).toEqual({ holder: 1, reader: 2 });
    // The same value again changes nothing.
    act(() => held!.set('the video'));
    expect(renders.reader).toBe(2);
  });
});
