import io
import textwrap
import unittest
from pathlib import Path
from tempfile import TemporaryDirectory

import import_csv


class ReadOrdersTest(unittest.TestCase):
    def write(self, text: str) -> Path:
        self.tmp = TemporaryDirectory()
        path = Path(self.tmp.name) / "orders.csv"
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
        return path

    def tearDown(self):
        self.tmp.cleanup()

    def test_groups_lines_by_order_ref(self):
        path = self.write("""
            order_ref,customer_email,sku,quantity,postcode,country
            A1,ann@example.com,HB-1,2,BS1 4DJ,gb
            A1,ann@example.com,HB-2,1,BS1 4DJ,GB
            B7,bob@example.com,HB-1,1,10115,de
        """)
        orders, errors = import_csv.read_orders(path)
        self.assertEqual(errors, [])
        self.assertEqual([o.ref for o in orders], ["A1", "B7"])
        self.assertEqual(len(orders[0].lines), 2)
        self.assertEqual(orders[1].country, "DE")

    def test_reports_bad_rows_with_line_numbers(self):
        path = self.write("""
            order_ref,customer_email,sku,quantity,postcode,country
            A1,ann@example.com,HB-1,two,BS1 4DJ,GB
            A2,not-an-email,HB-1,1,BS1 4DJ,GB
        """)
        orders, errors = import_csv.read_orders(path)
        self.assertEqual(orders, [])
        self.assertEqual([e.line for e in errors], [2, 3])


if __name__ == "__main__":
    unittest.main()
