import { describe, expect, it, vi } from 'vitest';
import { makeComment } from '@/test/fixtures.ts';
import type { Comment } from '@/types/api.ts';
import { addComments, clearAll, createRoot, deleteComment, findNode, ROOT_ID, updateComment } from './comment-tree.ts';

const c = (id: string, content = `text ${id}`): Comment => makeComment(id, { content });
const ids = (nodes: { value: Comment }[]) => nodes.map((n) => n.value._id);

const sample = () => {
  let t = addComments(createRoot(), [], [c('a'), c('b')]);
  t = addComments(t, ['a'], [c('a1'), c('a2')]);
  t = addComments(t, ['a', 'a1'], [c('a1x')]);
  return t;
};

describe('comment tree', () => {
  it('starts with the placeholder root', () => {
    const root = createRoot();
    expect(root.value._id).toBe(ROOT_ID);
    expect(root.value.content).toBe('root');
    expect(root.value.owner).toMatchObject({ _id: 'root', userName: 'root', fullName: 'root' });
    expect(root.children).toEqual([]);
  });

  it('adds comments by path, in order, skipping ids already present', () => {
    const t = sample();
    expect(ids(t.children)).toEqual(['a', 'b']);
    expect(ids(findNode(t, ['a'])!.children)).toEqual(['a1', 'a2']);
    expect(ids(findNode(t, ['a', 'a1'])!.children)).toEqual(['a1x']);
    const again = addComments(t, [], [c('b'), c('c')]);
    expect(ids(again.children)).toEqual(['a', 'b', 'c']);
    expect(ids(addComments(t, [], [c('new')], 'start').children)).toEqual(['new', 'a', 'b']);
  });

  it('does not mutate the previous tree', () => {
    const t = sample();
    const snapshot = JSON.stringify(t);
    addComments(t, ['a'], [c('a3')]);
    updateComment(t, ['a', 'a1'], { content: 'x' });
    deleteComment(t, ['a']);
    expect(JSON.stringify(t)).toBe(snapshot);
  });

  it('updates the content of the node at a path', () => {
    const t = updateComment(sample(), ['a', 'a1', 'a1x'], { content: 'edited' });
    expect(findNode(t, ['a', 'a1', 'a1x'])!.value.content).toBe('edited');
    expect(findNode(t, ['a', 'a1'])!.value.content).toBe('text a1');
  });

  it('deletes a node with its subtree', () => {
    const t = deleteComment(sample(), ['a', 'a1']);
    expect(ids(findNode(t, ['a'])!.children)).toEqual(['a2']);
    expect(findNode(t, ['a', 'a1', 'a1x'])).toBeUndefined();
    expect(ids(deleteComment(t, ['a']).children)).toEqual(['b']);
  });

  it('clears all', () => {
    expect(clearAll()).toEqual(createRoot());
  });

  it.each([
    ['add', (t: ReturnType<typeof sample>) => addComments(t, ['a', 'zz'], [c('q')])],
    ['update', (t: ReturnType<typeof sample>) => updateComment(t, ['zz'], { content: 'q' })],
    ['update of the root', (t: ReturnType<typeof sample>) => updateComment(t, [], { content: 'q' })],
    ['delete', (t: ReturnType<typeof sample>) => deleteComment(t, ['a', 'zz'])],
    ['delete under a missing parent', (t: ReturnType<typeof sample>) => deleteComment(t, ['zz', 'a1'])],
  ])("logs 'Node not found' and changes nothing on a bad path (%s)", (_name, op) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const t = sample();
    expect(op(t)).toBe(t);
    expect(warn).toHaveBeenCalledWith('Node not found');
  });
});
