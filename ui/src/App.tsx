// Root component: the window's header and the servers page.

import { AppHeader } from "./components/AppHeader";
import { ServersPage } from "./components/ServersPage";

export function App() {
  return (
    <div className="app">
      <AppHeader />
      <main className="app-main">
        <ServersPage />
      </main>
    </div>
  );
}
