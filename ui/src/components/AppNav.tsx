// The page navigation in the header: one link per route (a `NavItem`), the current page marked,
// and an optional count badge on an item (the Approvals item shows pending requests there).

import { NavLink } from "react-router";
import { ROUTES } from "../routes";

type AppNavProps = {
  /** Count badges by route path, such as { "/approvals": 2 }; zero or absent shows none. */
  badges?: Readonly<Record<string, number>>;
};

export function AppNav({ badges = {} }: AppNavProps) {
  return (
    <nav className="app-nav" aria-label="Pages">
      {ROUTES.map((route) => (
        <NavItem key={route.path} to={route.path} label={route.label} badge={badges[route.path]} />
      ))}
    </nav>
  );
}

type NavItemProps = {
  to: string;
  label: string;
  /** A count shown beside the label when above zero. */
  badge?: number | undefined;
};

export function NavItem({ to, label, badge }: NavItemProps) {
  const shown = badge !== undefined && badge > 0;
  return (
    <NavLink to={to} className={({ isActive }) => `nav-item${isActive ? " nav-item-active" : ""}`} data-testid={`nav-${label.toLowerCase()}`}>
      {label}
      {shown && (
        <span className="nav-badge" aria-label={`${badge} pending`} data-testid="nav-badge">
          {badge > 99 ? "99+" : badge}
        </span>
      )}
    </NavLink>
  );
}
