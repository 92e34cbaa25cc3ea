// A small file for the golden test.
#include <string>

namespace geo {

/// A shape with an area.
class Shape {
public:
    virtual ~Shape() = default;
    virtual double area() const = 0;
    std::string name() const { return "shape"; }
};

struct Circle : Shape {
    double r;
    double area() const override;
};

double Circle::area() const {
    return 3.14159 * r * r;
}

template <typename T>
T clamp(T v, T lo, T hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

using Area = double;

}  // namespace geo

int main() {
    return 0;
}
