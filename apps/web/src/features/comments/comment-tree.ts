import type { Comment } from '@/types/api.ts';

/**
 * Comments as a tree (spec §3): a placeholder root (id, owner and content 'root'), each
 * node a value and its children. Operations return a new tree (React state) and leave
 * it unchanged when a path id is missing, logging 'Node not found'.
 * A path is the list of comment ids from the first level down; [] is the root.
 */
export interface CommentNode {
  value: Comment;
  children: CommentNode[];
}

export const ROOT_ID = 'root';

export function createRoot(): CommentNode {
  const owner = { _id: ROOT_ID, userName: ROOT_ID, fullName: ROOT_ID, avatar: null };
  return {
    value: {
      _id: ROOT_ID,
      content: ROOT_ID,
      owner,
      replies: 0,
      likes: 0,
      state: 'published',
      pinned: false,
      dislikes: 0,
      likeStatus: 0,
      entityType: 'video',
      entityId: ROOT_ID,
      parentId: null,
      createdAt: '',
      updatedAt: '',
    },
    children: [],
  };
}

/** Clear all: a fresh root. */
export const clearAll = createRoot;

const notFound = <T>(tree: T): T => {
  console.warn('Node not found');
  return tree;
};

/** Rebuild the nodes along `path`, applying `edit` to the node at its end; null when an id is missing. */
function editAt(node: CommentNode, path: readonly string[], edit: (target: CommentNode) => CommentNode): CommentNode | null {
  if (path.length === 0) return edit(node);
  const [head, ...rest] = path;
  const index = node.children.findIndex((c) => c.value._id === head);
  if (index < 0) return null;
  const child = editAt(node.children[index]!, rest, edit);
  if (!child) return null;
  const children = node.children.slice();
  children[index] = child;
  return { ...node, children };
}

/** Add comments under the node at `path` (at the end, or first for a new one); ids already there are skipped. */
export function addComments(root: CommentNode, path: readonly string[], comments: readonly Comment[], where: 'end' | 'start' = 'end'): CommentNode {
  const next = editAt(root, path, (target) => {
    const have = new Set(target.children.map((c) => c.value._id));
    const fresh = comments.filter((c) => !have.has(c._id)).map((value) => ({ value, children: [] }));
    return { ...target, children: where === 'start' ? [...fresh, ...target.children] : [...target.children, ...fresh] };
  });
  return next ?? notFound(root);
}

/** Change fields of the comment at `path` (its content after an edit, its counts after a like). */
export function updateComment(root: CommentNode, path: readonly string[], patch: Partial<Comment>): CommentNode {
  if (path.length === 0) return notFound(root);
  return editAt(root, path, (target) => ({ ...target, value: { ...target.value, ...patch } })) ?? notFound(root);
}

/** Remove the comment at `path` with its whole subtree. */
export function deleteComment(root: CommentNode, path: readonly string[]): CommentNode {
  if (path.length === 0) return notFound(root);
  const parentPath = path.slice(0, -1);
  const id = path[path.length - 1];
  let found = false;
  const next = editAt(root, parentPath, (parent) => {
    found = parent.children.some((c) => c.value._id === id);
    return { ...parent, children: parent.children.filter((c) => c.value._id !== id) };
  });
  return next && found ? next : notFound(root);
}

/** The node at `path`, or undefined. */
export function findNode(root: CommentNode, path: readonly string[]): CommentNode | undefined {
  let node: CommentNode | undefined = root;
  for (const id of path) node = node?.children.find((c) => c.value._id === id);
  return node;
}
