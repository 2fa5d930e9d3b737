import type { Locator } from '@playwright/test';

/** Clicks a control that opens the file picker and answers it with `files`, as a user would. */
export async function chooseFiles(trigger: Locator, files: string | string[]): Promise<void> {
  const [chooser] = await Promise.all([trigger.page().waitForEvent('filechooser'), trigger.click()]);
  await chooser.setFiles(files);
}
