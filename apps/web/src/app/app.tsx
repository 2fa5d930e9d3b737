export function App() {
  return (
    <main className="grid min-h-screen place-items-center">
      <h1 className="text-2xl font-semibold">Glimpse</h1>
    </main>
  );
}
