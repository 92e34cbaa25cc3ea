// A small file for the golden test.
package example

import scala.collection.mutable

/** A shape with an area. */
trait Shape {
  def area: Double
}

case class Circle(r: Double) extends Shape {
  def area: Double = math.Pi * r * r
}

object Shapes {
  type Area = Double

  def largest(xs: Seq[Shape]): Shape =
    xs.maxBy(_.area)

  private def helper(x: Int): Int = x + 1
}

enum Color {
  case Red, Green
}

def topLevel(x: Int): Int = x * 2
