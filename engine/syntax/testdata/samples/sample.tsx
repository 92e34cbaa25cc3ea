// A small component for the golden test.
import React from "react";

interface ButtonProps {
  label: string;
  onClick: () => void;
}

/** Button renders a clickable label. */
export function Button({ label, onClick }: ButtonProps) {
  return <button onClick={onClick}>{label}</button>;
}

export const List = ({ items }: { items: string[] }) => (
  <ul>
    {items.map((i) => (
      <li key={i}>{i}</li>
    ))}
  </ul>
);

export default class Panel extends React.Component<ButtonProps> {
  render() {
    return <div className="panel">{this.props.label}</div>;
  }
}
