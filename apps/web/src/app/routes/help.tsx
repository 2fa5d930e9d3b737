const TROUBLESHOOTING = 'This answer is coming soon. Meanwhile, please try again later.';

const sections: { title: string; faqs: [string, string][] }[] = [
  {
    title: 'Account',
    faqs: [
      ['How do I create an account?', 'Choose Log In in the top bar, then Register. Enter your name, email and a password of at least 6 characters, then open the verification link we email you.'],
      ['I forgot my password. What now?', 'On the login page choose "Forgot password?", enter your email, and follow the reset link we send you.'],
      ['How do I change my name, avatar or cover image?', 'Open your avatar in the top bar to reach Personal information. Choose a new image or edit your names, then Save changes.'],
      ['How do I change my password?', 'Go to Settings, open the Change password tab, and enter your current and new password.'],
    ],
  },
  {
    title: 'Video management',
    faqs: [
      ['How do I upload a video?', 'Open Settings to reach your dashboard and choose Upload Video. Pick an mp4 file, a thumbnail, a title and a description.'],
      ['Why is my video not visible to others?', 'Uploaded videos stay private until you publish them with the toggle in your dashboard, and they play once processing has finished.'],
      ['How do I edit or delete a video?', 'Use the edit and delete buttons in the table of your dashboard.'],
    ],
  },
  {
    title: 'Watching',
    faqs: [
      ['Which keyboard shortcuts does the player have?', 'Space or K plays and pauses, J and L jump 10 seconds back and forward, F toggles full screen and M mutes.'],
      ['How do I save a video for later?', 'Choose Save under the video and tick a playlist, or create a new one.'],
      ['Where do I find videos I watched or liked?', 'History and Liked videos in the side menu list them.'],
    ],
  },
  {
    title: 'Troubleshooting',
    faqs: [
      ['A video does not play.', TROUBLESHOOTING],
      ['I did not receive the verification email.', TROUBLESHOOTING],
      ['The page looks broken.', TROUBLESHOOTING],
    ],
  },
];

export default function HelpRoute() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-6">
      <h1 className="mb-6 text-2xl font-bold">Help</h1>
      {sections.map((s) => (
        <section key={s.title} className="mb-8" aria-labelledby={`faq-${s.title}`}>
          <h2 id={`faq-${s.title}`} className="mb-3 text-lg font-semibold">
            {s.title}
          </h2>
          <div className="divide-y divide-zinc-200 rounded-xl border border-zinc-200">
            {s.faqs.map(([q, a]) => (
              <details key={q} className="group p-4">
                <summary className="cursor-pointer rounded font-medium">{q}</summary>
                <p className="mt-2 text-sm text-zinc-700">{a}</p>
              </details>
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
